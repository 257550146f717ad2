import { ConfigError } from '../config/error.js';
import { configFromValues, type Config, type OptionValues } from '../config/config-of.js';
import type { ConfigIo } from '../config/secrets.js';
import { LIBRARY_NAMING, libraryValues, type CreateSandboxOptions } from './option-values.js';

/** A browser sandbox's options: the library's, and where its pets are kept across reloads. */
export interface BrowserSandboxOptions extends CreateSandboxOptions {
  /**
   * Keeps the workspaces' pets in the page's IndexedDB, so that they
   * survive a reload: `true` (the database `petstore-sandbox`) or
   * `{ name }` (`petstore-sandbox:<name>`, one per app or test). Default
   * off: the memory store only, lost on reload (docs/library.md).
   */
  persist?: boolean | { name?: string };
}

/** The database `persist: true` keeps the pets in. */
const PERSISTED = 'petstore-sandbox';

/** The IndexedDB database `persist` names, or undefined when off; a ConfigError for any other value. */
export function persistedDatabase(persist: unknown): string | undefined {
  if (persist === undefined || persist === false) return undefined;
  if (persist === true) return PERSISTED;
  if (typeof persist === 'object' && persist !== null && !Array.isArray(persist)) {
    const { name } = persist as { name?: unknown };
    if (name === undefined) return PERSISTED;
    if (typeof name === 'string' && /^[\w.-]{1,64}$/.test(name)) return `${PERSISTED}:${name}`;
  }
  throw new ConfigError(
    'persist: give true, false or { name }, a name of 1 to 64 letters, digits, `.`, `_` or `-` (it names the IndexedDB database that keeps the pets).',
  );
}

/** A browser reads no secret file: the reason stands where a file system's error code would (`cannot read --x-file '...': <reason>`). */
const NO_FILES: ConfigIo = {
  readFile: () => {
    throw Object.assign(new Error('no file'), { code: 'a sandbox in a browser reads no file, give the value itself' });
  },
};

/** What a browser cannot do, said when it is asked for, as the option's ConfigError. */
function refuseNodeOnly(values: OptionValues): void {
  const mode = values.mode;
  if (mode === 'example' || mode === 'dynamic')
    throw new ConfigError(
      `mode '${mode}' answers through Prism, which runs only on Node: in a browser the sandbox answers in stateful mode. Use createSandbox or the server for ${mode} mode.`,
    );
  if (mode === 'proxy' || values.upstream !== undefined)
    throw new ConfigError(
      `${mode === 'proxy' ? "mode 'proxy'" : 'options.upstream'}: proxy mode forwards to a deployment from Node; a sandbox in a browser cannot forward (it answers in stateful mode).`,
    );
  // The value is not repeated: a database URL may hold a password.
  if (values.store !== 'memory')
    throw new ConfigError(
      "store: in a browser the sandbox keeps its data in memory only ('memory'): a data file needs a file system, PostgreSQL a Node client.",
    );
  if (values.port !== undefined) throw new ConfigError('port: a sandbox in a browser opens no port; its fetch handler (or MSW handlers) answer in the page.');
}

/**
 * The configuration of a sandbox in a browser: the library's options, checked
 * by the same rules as the command line's flags (configFromValues) but read
 * without Node; what needs Node (Prism's modes, proxy mode, a data file or
 * PostgreSQL, a port, a secret file) is refused with a ConfigError saying
 * why, and so is a `persist` that names no database.
 */
export function browserConfigOf(options: BrowserSandboxOptions = {}): Config {
  const { persist, ...libraryOptions } = options;
  persistedDatabase(persist);
  const values = libraryValues(libraryOptions);
  refuseNodeOnly(values);
  return configFromValues({ ...values, port: '0', 'log-level': 'silent' }, {}, NO_FILES, (path) => path, LIBRARY_NAMING);
}
