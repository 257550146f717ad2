import { AbstractStartedContainer, type StartedTestContainer } from 'testcontainers';
import { createControlClient, type ControlClient } from '../control/client.js';
import { workspaceOf, type Workspace } from '../library/workspace.js';

/** What a started sandbox container was given: where it answers, and its credentials. */
export interface SandboxAccess {
  /** The sandbox's origin on the host, e.g. `http://localhost:32768`. */
  url: string;
  apiKeys: readonly string[];
  adminToken: string;
}

/**
 * A started sandbox container: testcontainers' started container (stop,
 * logs, exec, …) with typed access to the sandbox in it.
 */
export class StartedPetStoreSandboxContainer extends AbstractStartedContainer {
  /** The sandbox's origin on the host: probes at `${url}/readyz`, the console at `${url}/console`. */
  readonly url: string;
  /** The interface's base URL, `${url}/v1`: where the application under test sends its requests. */
  readonly baseUrl: string;
  /** The accepted API keys (send one as `Authorization: Bearer <key>`). */
  readonly apiKeys: readonly string[];
  /** The control plane's token. */
  readonly adminToken: string;
  /** The control plane's typed client, with the admin token, acting on the first key's workspace unless told otherwise. */
  readonly client: ControlClient;

  constructor(started: StartedTestContainer, access: SandboxAccess) {
    super(started);
    this.url = access.url;
    this.baseUrl = `${access.url}/v1`;
    this.apiKeys = access.apiKeys;
    this.adminToken = access.adminToken;
    this.client = createControlClient({ origin: access.url, adminToken: access.adminToken, key: access.apiKeys[0] });
  }

  /** The typed controls (reset, load, faults, journal, checkpoints, …) of `key`'s workspace, by default the first key's. */
  workspace(key: string = this.apiKeys[0] as string): Workspace {
    return workspaceOf(this.client, key);
  }
}
