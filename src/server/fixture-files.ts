/** The fixture sets shipped in `fixtures/`, read from their files: the control plane gets them as a `FixtureSource`. */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJson } from '../kernel/json.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { FIXTURES_DIR } from '../config/paths.js';
import type { FixtureSet, FixtureSource } from '../control/fixtures.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Names of the fixture sets shipped in `fixtures/`. */
export async function fixtureNames(dir = FIXTURES_DIR): Promise<string[]> {
  const files = await readdir(dir).catch(() => []);
  return files
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Reads `fixtures/<name>.json`; the name cannot leave the folder. */
export async function readFixture(name: string, dir = FIXTURES_DIR): Promise<FixtureSet> {
  if (!NAME.test(name)) throw ApiError.of('invalid_request', `Fixture name ${echo(name)} is not valid: letters, digits, '.', '_' and '-' only.`);
  let text: string;
  try {
    text = await readFile(join(dir, `${name.replace(/\.json$/, '')}.json`), 'utf8');
  } catch {
    throw ApiError.of('not_found', `No fixture set ${echo(name)}. Available: ${(await fixtureNames(dir)).join(', ')}.`);
  }
  try {
    return parseJson(text) as FixtureSet;
  } catch (error) {
    throw ApiError.of('invalid_request', `Fixture set ${echo(name)} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The sets of a folder (`fixtures/` unless told) as the control plane reads them. */
export function fixtureFiles(dir = FIXTURES_DIR): FixtureSource {
  return { names: () => fixtureNames(dir), read: (name) => readFixture(name, dir) };
}
