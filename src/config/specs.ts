/** `--spec`: the OpenAPI documents the sandbox serves, each under the path of its first `servers` URL. */
import { ConfigError } from './error.js';

export interface SpecsConfig {
  /** The spec files given (absolute paths), in order; none: the embedded Pet Store, as always. */
  readonly specs: readonly string[];
}

/** The option of SpecsConfig: flag, environment variable, default, help; given more than once, each is served. */
export const SPEC_OPTIONS = {
  spec: {
    env: 'PETSTORE_SPEC',
    default: '',
    help: 'an OpenAPI 3.0 file to serve statefully under the path of its first servers URL (repeatable; the variable takes a comma-separated list); default the Pet Store',
    multiple: true,
  },
} as const;

/**
 * The spec files of the flags (each `--spec` once) or of the variable (a
 * comma-separated list), made absolute; the same file twice is refused,
 * since the second could only clash with the first's base path.
 */
export function specsConfigOf(
  given: string | boolean | readonly string[] | undefined,
  fromEnv: string | undefined,
  named: string,
  resolve: (path: string) => string,
): SpecsConfig {
  const raw =
    Array.isArray(given) ? given
    : typeof given === 'string' ? [given]
    : (fromEnv ?? '').split(',');
  const files = raw.map((file) => file.trim()).filter(Boolean);
  if (given !== undefined && files.length === 0) throw new ConfigError(`${named} needs a file`);
  const specs = files.map((file) => resolve(file));
  const twice = specs.find((file, i) => specs.indexOf(file) !== i);
  if (twice !== undefined) throw new ConfigError(`${named} names ${twice} twice: give each spec once`);
  return { specs: Object.freeze(specs) };
}
