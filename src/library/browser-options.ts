import { ConfigError } from '../config/error.js';
import { configFromValues, type Config, type OptionValues } from '../config/config-of.js';
import type { ConfigIo } from '../config/secrets.js';
import { LIBRARY_NAMING, libraryValues, type CreateSandboxOptions } from './option-values.js';

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
 * PostgreSQL, a port, a secret file) is refused with a ConfigError saying why.
 */
export function browserConfigOf(options: CreateSandboxOptions = {}): Config {
  const values = libraryValues(options);
  refuseNodeOnly(values);
  return configFromValues({ ...values, port: '0', 'log-level': 'silent' }, {}, NO_FILES, (path) => path, LIBRARY_NAMING);
}
