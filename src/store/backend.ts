/**
 * What the sandbox keeps, whatever keeps it: the workspaces' pets, the
 * journal, the faults and the mode. The stateful mode, the control plane, the
 * QA commands and the contract state setup use only these interfaces; the
 * file backend (lowdb files and commit logs, `src/store/`), the
 * PostgreSQL backend and the memory backend implement them.
 *
 * A method may answer at once or with a promise: the file backend answers
 * reads from memory, a database cannot.
 */
import type { Mode } from '../config/load.js';
import type { JournalEntry, JournalListener, JournalMemory, JournalRecord, JournalSince } from './journal/types.js';
import type { CoverageCount } from './journal/coverage-types.js';
import type { Fault, FaultInput } from './faults.js';
import type { Interceptor, Runtime } from '../kernel/operation.js';
import type { Page, PetText } from './pet-index.js';
import type { NewPet, Pet, PetStatus } from './types.js';
import type { WriteListener } from './write-times.js';
import type { ItemStore } from './items/types.js';

export type MaybePromise<T> = T | Promise<T>;

/** Which store keeps the sandbox's state (`/readyz` says it). */
export type BackendKind = 'file' | 'postgres' | 'memory';

/** How many pets a workspace holds and the id its next create gets. */
export interface Summary {
  count: number;
  nextId: number;
}

/**
 * One API key's pets, as a store keeps them. Every write is durable when its
 * promise resolves, and not visible before. (Not the library's `Workspace`,
 * `src/library/workspace.ts`: a workspace's typed controls over the control plane.)
 */
export interface WorkspaceData {
  /** The first `limit` pets by id ascending, optionally only those with `status`, with their JSON text. */
  page(limit: number, status?: PetStatus): MaybePromise<Page>;
  get(id: number): MaybePromise<Pet | undefined>;
  /** `get` with the pet's JSON text, as `page` gives a page's: what a read by id answers. */
  getText(id: number): MaybePromise<PetText | undefined>;
  /**
   * Adds a pet with the next id, resolved with the stored pet and its JSON text, so that the 201 serializes
   * nothing again; rejects with a StoreFailure (quota, no ids left, storage).
   */
  createText(input: NewPet): Promise<PetText>;
  /** Replaces every pet, as a new generation (reset, fixture load): all or nothing. */
  replace(pets: readonly Pet[], nextId?: number): Promise<void>;
  /** Adds pets to those stored; none may have an id already stored. All or nothing. */
  append(pets: readonly Pet[], nextId?: number): Promise<void>;
  summary(): MaybePromise<Summary>;
  /** The workspace as a fixture set, `{"nextId","pets"}`, JSON text in pieces: exactly `stringifyJson` (`src/core/exact-json.ts`). */
  exportPieces(): Iterable<string> | AsyncIterable<string>;
  /**
   * The export with its count and next id, read at one moment. Absent where
   * `summary()` and then `exportPieces()` taken at once already agree (the
   * file backend); a database answers them from one snapshot here, as
   * creates through other instances may land between two reads.
   */
  checkpointInput?(): Promise<CheckpointInput>;
}

/** The reads of a workspace that answer a request (a list, a pet): what `WorkspaceStore.reader` hands out. */
export type WorkspaceReads = Pick<WorkspaceData, 'page' | 'getText'>;

/** The workspaces of a sandbox, by API key. */
export interface WorkspaceStore {
  /** The workspace id of a key: a keyed hash, never the key. */
  idOf(key: string): string;
  /** Runs `work` on a key's workspace (created and seeded on first use); it stays available until `work` settles. */
  use<T>(key: string, work: (workspace: WorkspaceData) => MaybePromise<T>): Promise<T>;
  /** A key's workspace when it can be read at once (for synchronous work only), else undefined. */
  peek(key: string): WorkspaceData | undefined;
  /**
   * A key's workspace for reads alone, where some can be answered at once (a
   * database's reads this process keeps): each read answers at once when it
   * can, else through `use`. Absent, or undefined for a key, where `peek` and
   * `use` are the way.
   */
  reader?(key: string): WorkspaceReads | undefined;
  /** Ids of the workspaces open (or known) now. */
  openIds(): string[];
  /** Workspaces open now: the file backend's open stores; on PostgreSQL, those this instance's requests use. */
  openCount(): number;
  /** Workspaces of open keys removed since start (beyond `--open-key-workspaces` or unused past `--open-key-ttl`). */
  removedCount(): number;
  /** Tells `listener` of each write of its workspaces (create, replace, append) once it settled: the metrics time them. */
  listen(listener: WriteListener): void;
  close(): Promise<void>;
}

/** The journals of /v1 requests: one per workspace and one of unauthenticated requests. */
export interface JournalStore {
  /** Entries kept per journal; 0 keeps none. */
  readonly size: number;
  /** False while an entry would be dropped whatever it held (its writes are behind): the exchange is then not captured at all. */
  accepting?(): boolean;
  add(workspace: string, record: JournalRecord): void;
  read(workspace: string, limit: number): MaybePromise<JournalEntry[]>;
  /** The entries still kept whose id is above `after`, oldest first, and whether any after it may be gone: where a stream resumes. */
  since(workspace: string, after: number): MaybePromise<JournalSince>;
  clear(workspace: string): MaybePromise<number>;
  memory(): MaybePromise<JournalMemory>;
  /**
   * Requests journaled in a workspace (or in every journal, the
   * unauthenticated one too: `undefined`) by operation and status: counted
   * as each entry is added, whatever is evicted later; cleared with the journal.
   */
  counts(workspace: string | undefined): MaybePromise<CoverageCount[]>;
  /** Calls `listener` with each entry added to a journal from now on (by this process), until the returned function is called. */
  follow(workspace: string, listener: JournalListener): () => void;
}

/** Faults injected per workspace, and the interceptor that applies them. */
export interface FaultStore {
  list(workspace: string): MaybePromise<Fault[]>;
  add(workspace: string, input: FaultInput): MaybePromise<Fault>;
  clear(workspace: string, id?: number): MaybePromise<number>;
  readonly interceptor: Interceptor;
}

/** The mode /v1 answers in: read on every request, switched through the control plane. */
export interface ModeStore extends Runtime {
  set(mode: Mode): Promise<void>;
}

/** A saved checkpoint of a workspace, as listed. */
export interface CheckpointInfo {
  /** Its name, unique in its workspace: `CHECKPOINT_NAME` (letters, digits, `.`, `_`, `-`; at most 64). */
  name: string;
  /** When it was saved, ISO 8601. */
  savedAt: string;
  /** Pets it holds. */
  count: number;
  /** The next id it holds. */
  nextId: number;
  /** Bytes it takes in storage (what the checkpoint byte limit counts). */
  bytes: number;
}

/** What a checkpoint keeps: a workspace's export text and its summary, taken at the same moment. */
export interface CheckpointInput extends Summary {
  /** The export, `{"nextId","pets"}`, exactly as `WorkspaceData.exportPieces` gives it: kept byte for byte. */
  text: Iterable<string> | AsyncIterable<string>;
}

/** How many checkpoints, and how many bytes of them, one workspace may keep. */
export interface CheckpointLimits {
  count: number;
  bytes: number;
}

/**
 * Named checkpoints of each workspace: a workspace's export text saved
 * under a name, durable (it survives a restart) and bounded per workspace.
 * Restoring is the caller's: it reads the text back and replaces the
 * workspace's pets with it, all or nothing.
 */
export interface CheckpointStore {
  readonly limits: CheckpointLimits;
  /**
   * Saves `input` as `name` in `workspace`, whole or not at all. Rejects with
   * a StoreFailure: `conflict` when the name is taken and `overwrite` is
   * false, `quota_exceeded` past `limits`, or a storage failure.
   */
  save(workspace: string, name: string, input: CheckpointInput, overwrite: boolean): Promise<CheckpointInfo>;
  /** The workspace's checkpoints, by name. */
  list(workspace: string): Promise<CheckpointInfo[]>;
  /** The export text saved as `name`, byte for byte; undefined when there is none. */
  read(workspace: string, name: string): Promise<string | undefined>;
  /** Removes a checkpoint; false when there was none. */
  delete(workspace: string, name: string): Promise<boolean>;
}

/** Everything the sandbox keeps. */
export interface Backend {
  /** `file` (lowdb files beside `--data`), `postgres`, or `memory` (this process only). */
  readonly kind: BackendKind;
  readonly workspaces: WorkspaceStore;
  readonly journal: JournalStore;
  readonly faults: FaultStore;
  readonly mode: ModeStore;
  /** The items of APIs served from a spec by convention (`--spec`), per workspace and API. */
  readonly items: ItemStore;
  /** Named checkpoints; absent while a backend has none (the control plane then answers 501). */
  readonly checkpoints?: CheckpointStore;
  /**
   * Brings what this instance caches of shared state (mode, faults, and the
   * pets of `key`'s workspace) up to date before a request is answered;
   * absent when nothing is shared. Reads of pets may be answered from this
   * instance's copy only at the state the last sync read.
   */
  sync?(key?: string): MaybePromise<void>;
  /** Resolves when storage answers; rejects (a StoreFailure) when it does not. */
  health(): Promise<void>;
  close(): Promise<void>;
}
