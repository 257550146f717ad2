import { parseJson } from '../kernel/json.js';
import { ApiError } from '../kernel/errors.js';
import type { FixtureSet, FixtureSource } from '../control/fixtures.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The fixture sets as texts by name (embedded in the browser build), read as
 * `control/fixture-files.ts` reads them from `fixtures/`: the same names, the
 * same sets and the same refusals, with no file system.
 */
export function embeddedFixtures(texts: Readonly<Record<string, string>>): FixtureSource {
  const names = () => Object.keys(texts).sort();
  return {
    names: () => Promise.resolve(names()),
    read(name) {
      if (!NAME.test(name))
        return Promise.reject(ApiError.of('invalid_request', `Fixture name '${name}' is not valid: letters, digits, '.', '_' and '-' only.`));
      const key = name.replace(/\.json$/, '');
      const text = Object.hasOwn(texts, key) ? texts[key] : undefined;
      if (text === undefined) return Promise.reject(ApiError.of('not_found', `No fixture set '${name}'. Available: ${names().join(', ')}.`));
      try {
        return Promise.resolve(parseJson(text) as FixtureSet);
      } catch (error) {
        return Promise.reject(ApiError.of('invalid_request', `Fixture set '${name}' is not valid JSON: ${(error as Error).message}`));
      }
    },
  };
}
