/**
 * What the store can refuse or fail at, as data the HTTP layer turns into
 * the documented Error codes (docs/interface.md, "Errors"). The store imports nothing
 * of HTTP: each failure carries the catalogue `code` it answers with.
 */

/** A data file that cannot be read as this sandbox's data: never overwritten. Stops start-up. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreError';
  }
}

/** Codes of the error catalogue that a store failure answers with. */
export type StoreFailureCode = 'invalid_request' | 'conflict' | 'quota_exceeded' | 'insufficient_storage' | 'service_unavailable';

/**
 * A write the store refused or could not make. Nothing of it is kept, in
 * memory or on disk; the store stays usable and the same write may succeed
 * later (when space is freed, permissions restored, a quota raised).
 */
export class StoreFailure extends StoreError {
  constructor(
    readonly code: StoreFailureCode,
    message: string,
    /** The system error behind it, if any (for the server's log, never for the client). */
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'StoreFailure';
  }
}

/** What an errno means for the data, and how a client is answered. */
const CAUSES: Record<string, { code: StoreFailureCode; says: string }> = {
  ENOSPC: { code: 'insufficient_storage', says: 'the disk holding the data is full' },
  EDQUOT: { code: 'insufficient_storage', says: 'the disk quota of the data folder is used up' },
  EFBIG: { code: 'insufficient_storage', says: 'a data file reached the largest size the file system allows' },
  EROFS: { code: 'service_unavailable', says: 'the data folder is on a read-only file system' },
  EACCES: { code: 'service_unavailable', says: 'permission denied on the data folder' },
  EPERM: { code: 'service_unavailable', says: 'permission denied on the data folder' },
  EMFILE: { code: 'service_unavailable', says: 'the sandbox has too many open files' },
  ENFILE: { code: 'service_unavailable', says: 'the system has too many open files' },
  EIO: { code: 'service_unavailable', says: 'the disk reported an I/O error' },
  ENOENT: { code: 'service_unavailable', says: 'the data folder is missing' },
  ENOTDIR: { code: 'service_unavailable', says: 'the data folder is missing' },
};

/** The errno of a system error, if it is one. */
export const errnoOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * A failed storage operation as a StoreFailure: full disk 507, read-only,
 * permission, descriptors and I/O 503, each message naming the cause.
 * `action` says what was attempted, e.g. "Could not store the pet".
 */
export function storageFailure(error: unknown, action: string): StoreFailure {
  if (error instanceof StoreFailure) return error;
  const cause = CAUSES[errnoOf(error) ?? ''];
  const says = cause?.says ?? `the data could not be written (${errnoOf(error) ?? (error as Error)?.message ?? 'unknown error'})`;
  const retry = cause?.code === 'insufficient_storage' ? 'Free some space, then try again.' : 'Try again when storage is back.';
  return new StoreFailure(cause?.code ?? 'service_unavailable', `${action}: ${says}. Nothing was changed. ${retry}`, error);
}
