import { randomBytes } from 'node:crypto';
import { GenericContainer, getContainerRuntimeClient } from 'testcontainers';
import type { Mode } from '../config/modes.js';
import { MIN_ADMIN_TOKEN_LENGTH } from '../config/allowed-hosts.js';
import { DEFAULT_ADMIN_TOKEN, DEFAULT_API_KEY } from '../config/config-of.js';
import { freePort, LOOPBACK } from './host-port.js';
import { ReadyzWaitStrategy } from './ready-wait.js';
import { StartedPetStoreSandboxContainer } from './started.js';

/** The image a container runs unless told otherwise: the name `compose.yaml` tags its build with (`docker compose build`). */
export const DEFAULT_IMAGE = 'petstore-sandbox:local';
/** The port the image's sandbox listens on (`PETSTORE_PORT`, `EXPOSE 4010`). */
export const SANDBOX_PORT = 4010;

/** How the sandbox in the container is configured; every option has a `with…` method too. */
export interface PetStoreSandboxOptions {
  /** The accepted API keys (`PETSTORE_API_KEYS`); default one random key. */
  apiKeys?: readonly string[];
  /** The control plane's token (`PETSTORE_ADMIN_TOKEN`), at least 16 characters and not the documented one; default a random one. */
  adminToken?: string;
  /** Faker's seed for fresh workspaces (`PETSTORE_SEED`). */
  seed?: number;
  /** Pets in a fresh workspace (`PETSTORE_COUNT`). */
  count?: number;
  /** How /v1 is answered (`PETSTORE_MODE`). */
  mode?: Mode;
  /** Any other flag of the command line, as arguments: `['--journal-size', '500']`. */
  flags?: readonly string[];
}

/**
 * The Pet Store sandbox for testcontainers-node: a `GenericContainer` of the
 * sandbox's image, with random credentials (the image listens on 0.0.0.0,
 * where the sandbox refuses its documented defaults) and a wait on `/readyz`.
 * `start()` resolves to a container that knows its URL, keys and control
 * client.
 */
export class PetStoreSandboxContainer extends GenericContainer {
  private apiKeys: string[];
  private adminToken: string;
  private flags: string[];
  private settings: Record<string, string> = {};
  private hostNetwork = false;

  constructor(image: string = DEFAULT_IMAGE, options: PetStoreSandboxOptions = {}) {
    super(image);
    this.apiKeys = acceptedKeys([...(options.apiKeys ?? [randomSecret('key')])]);
    this.adminToken = acceptedToken(options.adminToken ?? randomSecret('admin'));
    this.flags = [...(options.flags ?? [])];
    if (options.seed !== undefined) this.withSeed(options.seed);
    if (options.count !== undefined) this.withCount(options.count);
    if (options.mode !== undefined) this.withMode(options.mode);
    this.withExposedPorts(SANDBOX_PORT);
  }

  /** The accepted API keys; the first is the one `workspace()` and `client` act on by default. */
  withApiKeys(...keys: string[]): this {
    if (keys.length === 0) throw new TypeError('withApiKeys needs at least one key');
    this.apiKeys = acceptedKeys(keys);
    return this;
  }

  /** The control plane's token: at least 16 characters, and not the documented `sandbox-admin` (the container listens beyond loopback). */
  withAdminToken(token: string): this {
    this.adminToken = acceptedToken(token);
    return this;
  }

  withSeed(seed: number): this {
    this.settings.PETSTORE_SEED = String(seed);
    return this;
  }

  withCount(count: number): this {
    this.settings.PETSTORE_COUNT = String(count);
    return this;
  }

  withMode(mode: Mode): this {
    this.settings.PETSTORE_MODE = mode;
    return this;
  }

  /** Flags of the command line appended to those given before (docs/configuration.md lists them). */
  withFlags(...flags: string[]): this {
    this.flags.push(...flags);
    return this;
  }

  /**
   * `'host'` runs the sandbox in the host's network, where no port is
   * published: it then listens on 127.0.0.1 at a free port of the host.
   */
  override withNetworkMode(networkMode: string): this {
    this.hostNetwork = networkMode === 'host';
    return super.withNetworkMode(networkMode);
  }

  /** A container made but refused by the runtime, removed: testcontainers removes only one that failed its wait. */
  private createdId: string | undefined;

  protected override async containerCreated(containerId: string): Promise<void> {
    this.createdId = containerId;
  }

  private async removeFailed(): Promise<void> {
    if (this.createdId === undefined) return;
    const client = await getContainerRuntimeClient();
    const container = client.container.getById(this.createdId);
    await client.container.stop(container, { timeout: 0 }).catch(() => undefined);
    await client.container.remove(container, { removeVolumes: true }).catch(() => undefined);
  }

  /** Docker's host is this machine's loopback: the published port need not be reachable from anywhere else. */
  private publishOnLoopback(): void {
    const bindings = this.hostConfig.PortBindings as Record<string, { HostIp?: string; HostPort?: string }[]> | undefined;
    for (const list of Object.values(bindings ?? {})) for (const binding of list) binding.HostIp ??= '127.0.0.1';
  }

  override async start(): Promise<StartedPetStoreSandboxContainer> {
    const port = this.hostNetwork ? await freePort() : SANDBOX_PORT;
    const host = this.hostNetwork ? '127.0.0.1' : (await getContainerRuntimeClient()).info.containerRuntime.host;
    if (!this.hostNetwork && LOOPBACK.has(host)) this.publishOnLoopback();
    if (this.hostNetwork) {
      // Nothing is published in the host's network; the sandbox stays on loopback there, as outside a container.
      this.exposedPorts = [];
      this.withEnvironment({ PETSTORE_HOST: '127.0.0.1', PETSTORE_PORT: String(port) });
    }
    this.withEnvironment({ ...this.settings, PETSTORE_API_KEYS: this.apiKeys.join(','), PETSTORE_ADMIN_TOKEN: this.adminToken });
    if (this.flags.length > 0) this.withCommand(this.flags);
    const origin = (bound: { getBinding(port: number): number }) => `http://${host}:${this.hostNetwork ? port : bound.getBinding(SANDBOX_PORT)}`;
    if (this.waitStrategy === undefined) this.withWaitStrategy(new ReadyzWaitStrategy(origin));
    const started = await super.start().catch(async (error: unknown) => {
      await this.removeFailed();
      throw error;
    });
    const url = this.hostNetwork ? `http://${host}:${port}` : `http://${host}:${started.getMappedPort(SANDBOX_PORT)}`;
    return new StartedPetStoreSandboxContainer(started, { url, apiKeys: [...this.apiKeys], adminToken: this.adminToken });
  }
}

/**
 * The image's sandbox listens on 0.0.0.0, where it refuses the documented
 * secrets and an admin token under 16 characters: refused here at once,
 * before a container is made, in the words of this module.
 */
function acceptedToken(token: string): string {
  if (token === DEFAULT_ADMIN_TOKEN)
    throw new TypeError(
      `PetStoreSandboxContainer: the admin token '${DEFAULT_ADMIN_TOKEN}' is the documented default; leave adminToken unset for a random one`,
    );
  if (token.length < MIN_ADMIN_TOKEN_LENGTH)
    throw new TypeError(`PetStoreSandboxContainer: the admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
  return token;
}

function acceptedKeys(keys: string[]): string[] {
  if (keys.includes(DEFAULT_API_KEY))
    throw new TypeError(`PetStoreSandboxContainer: the API key '${DEFAULT_API_KEY}' is the documented default; leave apiKeys unset for a random one`);
  return keys;
}

/** A random secret: long enough that no guess reaches the control plane of a container a test left running. */
function randomSecret(prefix: string): string {
  return `${prefix}-${randomBytes(16).toString('hex')}`;
}
