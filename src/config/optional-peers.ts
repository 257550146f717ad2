import { ConfigError } from './error.js';

/**
 * The libraries only some users need, which the package leaves to them
 * (optional peer dependencies) and loads on first use, with the versions it
 * is built and tested with: `package.json`'s `peerDependencies` say the
 * same (a unit test holds the two equal). A sandbox that answers in
 * stateful mode from a data file, the library and the MSW handlers need
 * none of them.
 */
export const OPTIONAL_PEERS = {
  '@stoplight/prism-http': '^5.16.0',
  '@stoplight/prism-core': '^5.16.0',
  pg: '^8.23.1',
  '@modelcontextprotocol/sdk': '^1.32.2',
  '@opentelemetry/api': '^1.10.0',
  '@opentelemetry/core': '^3.1.1',
  '@opentelemetry/exporter-trace-otlp-http': '^0.301.0',
  '@opentelemetry/resources': '^3.1.1',
  '@opentelemetry/sdk-trace': '^3.1.1',
  '@opentelemetry/semantic-conventions': '^1.45.0',
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** A feature whose optional peer is not installed: a configuration problem, named with the command that installs it. */
export class MissingPeerError extends ConfigError {
  constructor(
    message: string,
    /** The npm command that installs what is missing. */
    readonly install: string,
  ) {
    super(message);
    this.name = 'MissingPeerError';
  }
}

/** The npm command that installs `names` at the versions the package is tested with. */
export function installCommand(names: readonly OptionalPeer[]): string {
  return `npm install --save-dev ${names.map((name) => `${name}@${OPTIONAL_PEERS[name]}`).join(' ')}`;
}

/**
 * Whether an import's error says that the package `name` is not installed,
 * rather than that it is there but broken: Node's ESM loader reports
 * `Cannot find package 'pg' imported from …` (for a subpath too), its
 * CommonJS loader `Cannot find module 'pg'`.
 */
export function isNotInstalled(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`'${name}'`) || message.includes(`'${name}/`));
}

/**
 * `load()`'s module; when one of `names` is not installed, a
 * MissingPeerError that says what needs them (`need`, the start of a
 * sentence: "Example mode") and the npm command that installs them. Any
 * other failure is thrown as it is.
 */
export async function importPeer<T>(names: readonly OptionalPeer[], need: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!names.some((name) => isNotInstalled(error, name))) throw error;
    const install = installCommand(names);
    const which = names.length === 1 ? `${names[0]}, an optional peer dependency` : `${names.join(' and ')}, optional peer dependencies`;
    throw new MissingPeerError(`${need} needs ${which} of petstore-sandbox, not installed here. Install: ${install}`, install);
  }
}
