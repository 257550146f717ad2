/**
 * The few parts of IndexedDB the persisted browser store uses, typed here
 * (the package is type-checked without the DOM's types), with its requests
 * and transactions as promises. No wrapper library: these are all it needs.
 */
import { StoreFailure } from '../../kernel/store-errors.js';

export interface IdbRequest<T> {
  readonly result: T;
  readonly error: DOMException | null;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}

export interface IdbStore {
  get(key: IdbKey): IdbRequest<unknown>;
  getAll(range: unknown): IdbRequest<unknown[]>;
  put(value: unknown, key: IdbKey): IdbRequest<unknown>;
  delete(range: unknown): IdbRequest<undefined>;
}

export interface IdbTransaction {
  objectStore(name: string): IdbStore;
  abort(): void;
  readonly error: DOMException | null;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

export interface IdbDatabase {
  transaction(stores: string[], mode: 'readonly' | 'readwrite', options?: { durability: 'strict' }): IdbTransaction;
  createObjectStore(name: string): unknown;
  close(): void;
  onversionchange: (() => void) | null;
}

interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: (() => void) | null;
  onblocked: (() => void) | null;
}

interface IdbGlobals {
  indexedDB?: { open(name: string, version: number): IdbOpenRequest };
  IDBKeyRange: { bound(lower: unknown, upper: unknown): unknown };
}

export type IdbKey = string | readonly (string | number)[];

/** The stores of a persisted sandbox's database: `meta` (the id secret, each workspace's version and next id), `pets` by `[workspace, id]`. */
export const STORES = ['meta', 'pets'];

/** The keys of one workspace's pets in `pets`. */
export const petRange = (workspace: string): unknown => (globalThis as unknown as IdbGlobals).IDBKeyRange.bound([workspace, -Infinity], [workspace, Infinity]);

/** A request's result, or its failure as a StoreFailure. */
export function requested<T>(request: IdbRequest<T>, action: string): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(storageFailure(action, request.error));
  });
}

/**
 * Opens (and at first creates) the database `name`. Rejects with an Error
 * saying why when IndexedDB is missing or refuses (a private window, a
 * policy, a blocked upgrade).
 */
export function openDatabase(name: string): Promise<IdbDatabase> {
  const factory = (globalThis as unknown as IdbGlobals).indexedDB;
  if (!factory) return Promise.reject(new Error('IndexedDB is not available here'));
  return new Promise((resolve, reject) => {
    let request: IdbOpenRequest;
    try {
      request = factory.open(name, 1);
    } catch (error) {
      reject(new Error(`IndexedDB refused to open '${name}' (${nameOf(error)})`));
      return;
    }
    request.onupgradeneeded = () => {
      for (const store of STORES) request.result.createObjectStore(store);
    };
    request.onblocked = () => reject(new Error(`IndexedDB database '${name}' is held at an older version by another tab`));
    request.onerror = () => reject(new Error(`IndexedDB refused to open '${name}' (${nameOf(request.error)})`));
    request.onsuccess = () => {
      const db = request.result;
      // Another tab deleting or upgrading the database: let it; this copy's writes then fail as 503.
      db.onversionchange = () => db.close();
      resolve(db);
    };
  });
}

/**
 * Runs `work` in one read-write transaction over both stores and resolves
 * once the transaction is complete (its writes stored: `durability:
 * 'strict'` asks the browser to flush them first), with what `work`
 * returned. `work` may await only this transaction's requests. A throw in
 * `work` aborts the transaction (nothing is stored); a StoreFailure is
 * rethrown as it is, anything else as one (`storageFailure`).
 */
export function transact<T>(db: IdbDatabase, action: string, work: (tx: IdbTransaction) => Promise<T>): Promise<T> {
  let tx: IdbTransaction;
  try {
    tx = db.transaction(STORES, 'readwrite', { durability: 'strict' });
  } catch (error) {
    return Promise.reject(storageFailure(action, error));
  }
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(storageFailure(action, tx.error));
  });
  const worked = work(tx).catch((error: unknown) => {
    try {
      tx.abort();
    } catch {
      // Already finished: nothing was left to undo.
    }
    throw storageFailure(action, error);
  });
  // Both settle: a failed `work` also aborts the transaction, whose rejection is then the lesser news.
  done.catch(() => undefined);
  return worked.then(async (value) => {
    await done;
    return value;
  });
}

const nameOf = (error: unknown): string => (error as { name?: unknown } | null)?.name?.toString() ?? 'unknown error';

/** An IndexedDB failure as the catalogue's: the origin's storage quota used up 507, anything else 503. */
export function storageFailure(action: string, error: unknown): StoreFailure {
  if (error instanceof StoreFailure) return error;
  const name = nameOf(error);
  if (name === 'QuotaExceededError')
    return new StoreFailure('insufficient_storage', `${action}: the browser's storage quota for this origin is used up (IndexedDB: ${name}).`, error);
  return new StoreFailure('service_unavailable', `${action}: the browser's IndexedDB failed (${name}).`, error);
}
