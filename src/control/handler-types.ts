import type { ItemStore } from '../store/items/types.js';
import type { BackendKind, CheckpointStore, FaultStore, JournalStore, ModeStore, WorkspaceStore } from '../store/backend.js';
import type { FixtureSource } from './fixtures.js';
import type { ServedItems } from './api-items.js';
import type { Config, Mode } from '../config/load.js';
import type { OperationSpec, Spec } from '../openapi/spec.js';
import type { SchemaCheck } from '../openapi/validate.js';
import type { EventStream } from './event-stream.js';
import type { ControlBody, ControlOperationId, ControlPathParams, ControlQuery, ControlResult } from './routes.js';

/** What the probes ask of the sandbox. */
export interface Probes {
  /** Whether the sandbox is shutting down (after SIGTERM): `/readyz` then answers 503. */
  draining(): boolean;
  /** The backend's kind; its `health()` rejects when storage does not answer. */
  backend: { readonly kind: BackendKind; health(): Promise<void> };
}

/** An API the sandbox serves, as the control plane describes it: where, from which spec, and whether it is the embedded Pet Store. */
export interface ControlApi {
  base: string;
  spec: Spec;
  embedded: boolean;
  /** A spec served by convention whose listPets, createPet and getPet are the Pet Store's, answered by its rules. */
  layered?: boolean;
}

/** What the control plane acts on: the sandbox's state, which its HTTP router only exposes. */
export interface ControlDeps {
  config: Config;
  runtime: ModeStore;
  workspaces: WorkspaceStore;
  journal: JournalStore;
  faults: FaultStore;
  /** Named checkpoints; absent when the backend keeps none. */
  checkpoints?: CheckpointStore;
  checkPet: SchemaCheck;
  /** The fixture sets a load may name (`fixtures/`). */
  fixtures: FixtureSource;
  /** The interface's operations, by operationId: what a fault may name and force. */
  operations: ReadonlyMap<string, OperationSpec>;
  /** The APIs served, in order (`GET /apis`); absent: the embedded Pet Store's `operations` at `/v1`. */
  apis?: readonly ControlApi[] | undefined;
  /** The items of the specs served by convention (`--spec`): a reset forgets a workspace's, to be seeded afresh. */
  items?: ItemStore | undefined;
  /** The APIs served by convention with their collections: what an export, a load, a checkpoint and a copy carry besides the pets. */
  apiItems?: ServedItems | undefined;
  version: string;
  startedAt: number;
  /** Makes a mode ready to answer (Prism loads on first use); awaited before a switch takes effect. */
  prepareMode?: (mode: Mode) => Promise<void>;
  /** The modes this sandbox can answer in (`stateful`, Prism's where Prism runs, `proxy` with an upstream); default all but proxy. */
  modes?: readonly Mode[];
  /** What `/readyz` asks. */
  probes: Probes;
  /** The metrics' text exposition and its Content-Type, for `/metrics`. */
  metrics: { text(): Promise<string>; readonly contentType: string };
}

/** One call of an operation, its request already checked against spec/sandbox-control.yaml. */
export interface ControlCall<K extends ControlOperationId> {
  /** `X-Sandbox-Key` as sent (well-formed), if it was. */
  key: string | undefined;
  /** `X-Sandbox-Target-Key` as sent (well-formed), if it was: where a copy goes. */
  target: string | undefined;
  /** `Last-Event-ID` as sent (well-formed), if it was: where a journal stream resumes. */
  lastEventId?: string | undefined;
  query: Partial<ControlQuery<K>>;
  path: ControlPathParams<K>;
  body: ControlBody<K> | undefined;
  /** Whether an API key opened the call (an operation the route table marks `apiKey`), not the admin token. */
  byApiKey?: boolean;
  /** The request's `Accept` header, for an operation that answers more than one format. */
  accept?: string | undefined;
  /** Aborted when the client has left: an operation that writes checks it last (`beforeWrite`). Absent off HTTP (the QA commands on the files). */
  signal?: AbortSignal | undefined;
}

/** An answer already serialized, in pieces: a body too large to hold as one string (an export). */
export class JsonPieces<T> {
  /** Only for the type: the value the text is the JSON of. */
  declare readonly value?: T;
  constructor(readonly pieces: Iterable<string> | AsyncIterable<string>) {}
}

/** An answer that is not JSON, e.g. the metrics' text exposition. */
export class TextAnswer {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}

/** An operation without a JSON success (`never`) answers a stream of events (the live journal). */
type Answer<T> = [T] extends [never] ? EventStream | TextAnswer : T | JsonPieces<T> | TextAnswer;

/** What each operation of the control plane does, without HTTP. */
export type ControlHandlers = { [K in ControlOperationId]: (call: ControlCall<K>) => Answer<ControlResult<K>> | Promise<Answer<ControlResult<K>>> };

/** Which key of a call: the workspace it acts on (`X-Sandbox-Key`), or the one a copy goes to (`X-Sandbox-Target-Key`). */
export type KeyRole = 'source' | 'target';

/** What every group of handlers shares: the dependencies, and the workspace a call acts on. */
export interface ControlContext {
  deps: ControlDeps;
  /**
   * The API key whose workspace a call acts on; the spec has already checked
   * its form. `role` says where it came from, so that a refusal names it:
   * the caller's key, or the target of a copy.
   */
  keyOf(raw: string | undefined, role?: KeyRole): string;
  workspaceOf(raw: string | undefined): string;
  summary(key: string): Promise<ControlResult<'resetWorkspace'>>;
}

/** The handlers of some operations: one group, in a file of its own or below. */
export type HandlerGroup<K extends ControlOperationId> = Pick<ControlHandlers, K>;
