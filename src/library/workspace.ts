import type { ControlClient } from '../control/client.js';
import type { ControlBody, ControlQuery, ControlResult } from '../control/routes.js';
import type { ServerSentEvent } from '../control/sse.js';
import { resumingEvents, type FollowOptions } from '../control/resume.js';

/**
 * One API key's workspace, controlled in code: the control plane's
 * operations (spec/sandbox-control.yaml), typed from the spec, each checked
 * and answered as over HTTP. A refusal rejects with a `ControlError`
 * carrying the Error body.
 */
export interface Workspace {
  /** The API key whose workspace this is: send it as `Authorization: Bearer <key>` on /v1. */
  readonly key: string;
  /** Back to seeded data (`seed`, `count`) or empty; the journal and faults stay. */
  reset(options?: ControlBody<'resetWorkspace'>): Promise<ControlResult<'resetWorkspace'>>;
  /** Replaces the pets with a fixture set: a name from `fixtures/`, or the pets themselves; `apis` the items of the APIs served by convention too. */
  load(fixture: ControlBody<'loadFixture'>): Promise<ControlResult<'loadFixture'>>;
  /** Every pet, with the next id (and under `apis` the items of every API served by convention), as a fixture set `load` takes back. */
  export(): Promise<ControlResult<'exportWorkspace'>>;
  /** Forced answers of /v1 operations: a status, a delay, a count. */
  readonly faults: {
    list(): Promise<ControlResult<'listFaults'>>;
    add(fault: ControlBody<'addFault'>): Promise<ControlResult<'addFault'>>;
    delete(faultId: number): Promise<ControlResult<'deleteFault'>>;
    clear(): Promise<ControlResult<'clearFaults'>>;
  };
  /** The requests this workspace's key sent and what they were answered, newest last. */
  readonly journal: {
    read(query?: ControlQuery<'readJournal'>): Promise<ControlResult<'readJournal'>>;
    clear(): Promise<ControlResult<'clearJournal'>>;
    /**
     * Each new entry as it happens, until `signal` aborts or the loop breaks:
     * an `open` event, then an `entry` event for each, its `id` the entry's.
     * A dropped connection (a server restart, the network) is opened again by
     * itself, resumed after the last entry seen: none comes twice, and a
     * `gap` event says when some were dropped from the journal meanwhile.
     */
    follow(options?: FollowOptions): AsyncIterable<ServerSentEvent>;
  };
  /** Saves the pets (and the items of the APIs served by convention) under a name (`restore` brings them back). */
  checkpoint(name: string): Promise<ControlResult<'saveCheckpoint'>>;
  restore(name: string): Promise<ControlResult<'restoreCheckpoint'>>;
  readonly checkpoints: {
    list(): Promise<ControlResult<'listCheckpoints'>>;
    delete(name: string): Promise<ControlResult<'deleteCheckpoint'>>;
  };
  /** Copies this workspace's pets (and items of the APIs served by convention) into the workspace of `targetKey`. */
  copyTo(targetKey: string, options?: ControlBody<'copyWorkspace'>): Promise<ControlResult<'copyWorkspace'>>;
  /** A consumer's pact (Pact V4), recorded from the journal. */
  pact(query: ControlQuery<'exportPact'>): Promise<ControlResult<'exportPact'>>;
  /** Which operations and documented statuses this workspace's requests exercised (docs/coverage.md), as JSON. */
  coverage(query?: Omit<ControlQuery<'readCoverage'>, 'format' | 'all'>): Promise<ControlResult<'readCoverage'>>;
}

/** A workspace's controls through `client` (the control plane's typed client), acting on `key`'s workspace. */
export function workspaceOf(client: ControlClient, key: string): Workspace {
  const on = { key };
  return {
    key,
    reset: (options = {}) => client.call('resetWorkspace', { body: options }, on),
    load: (fixture) => client.call('loadFixture', { body: fixture }, on),
    export: () => client.call('exportWorkspace', {}, on),
    faults: {
      list: () => client.call('listFaults', {}, on),
      add: (fault) => client.call('addFault', { body: fault }, on),
      delete: (faultId) => client.call('deleteFault', { path: { faultId } }, on),
      clear: () => client.call('clearFaults', {}, on),
    },
    journal: {
      read: (query = {}) => client.call('readJournal', { query }, on),
      clear: () => client.call('clearJournal', {}, on),
      follow: (options = {}) =>
        resumingEvents(
          (lastEventId, signal) => client.events('streamJournal', { query: lastEventId === undefined ? {} : { lastEventId } }, { ...on, signal }),
          options,
        ),
    },
    checkpoint: (name) => client.call('saveCheckpoint', { body: { name } }, on),
    restore: (name) => client.call('restoreCheckpoint', { path: { name } }, on),
    checkpoints: {
      list: () => client.call('listCheckpoints', {}, on),
      delete: (name) => client.call('deleteCheckpoint', { path: { name } }, on),
    },
    copyTo: (targetKey, options = {}) => client.call('copyWorkspace', { body: options }, { ...on, targetKey }),
    pact: (query) => client.call('exportPact', { query }, on),
    coverage: (query = {}) => client.call('readCoverage', { query: { ...query, format: 'json' } }, on),
  };
}
