import { resolve } from 'node:path';
import { configFromValues, type Config } from '../config/config-of.js';
import { fileIo } from '../config/file-io.js';
import { LIBRARY_NAMING, libraryValues, type CreateSandboxOptions } from './option-values.js';

export type { CreateSandboxOptions } from './option-values.js';

/**
 * The configuration of a library sandbox: its options checked by the
 * command line's rules (configFromValues), each refusal a ConfigError
 * naming the option as the caller wrote it (`seed`, `options['journal-size']`).
 * Environment variables are not read: a test suite's sandbox is what its
 * code says.
 */
export function configOf(options: CreateSandboxOptions = {}): Config {
  const values = libraryValues(options);
  // The port is listen()'s to open (0 for any free one); a library logs nothing: its host has a logger of its own.
  return configFromValues({ ...values, port: values.port ?? '0', 'log-level': 'silent' }, {}, fileIo, resolve, LIBRARY_NAMING);
}
