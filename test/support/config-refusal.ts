import { expect } from 'vitest';
import { ConfigError } from '../../src/config/load.js';

/** The ConfigError that `run` throws; fails the test if it throws nothing or something else. */
export function configRefusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('no ConfigError');
}
