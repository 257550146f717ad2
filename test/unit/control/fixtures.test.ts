/**
 * Fixture sets without HTTP: the names in a folder, reading one by name (it
 * cannot leave the folder), and turning a set into pets, validated against
 * the spec's Pet schema all or nothing.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveFixture } from '../../../src/control/fixtures.js';
import { fixtureNames, readFixture } from '../../../src/server/fixture-files.js';
import { ApiError } from '../../../src/kernel/errors.js';
import { createValidators } from '../../../src/openapi/validate.js';
import { generatePets } from '../../../src/store/seed.js';
import { tempDir } from '../../support/harness.js';
import { spec } from '../../support/operation-request.js';

const checkPet = createValidators(spec).schema('/components/schemas/Pet');
const dir = tempDir('petstore-fixtures-unit-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'small.json'), JSON.stringify({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] }));
writeFileSync(join(dir, 'broken.json'), '{"pets": [');
writeFileSync(join(dir, 'notes.txt'), 'not a fixture set');
mkdirSync(join(dir, 'nested'));

/** The ApiError a call throws (sync or async). */
async function refusal(run: () => unknown): Promise<ApiError> {
  const outcome = await Promise.resolve()
    .then(run)
    .then(
      (value) => new Error(`returned ${JSON.stringify(value)}`),
      (error: unknown) => error,
    );
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

describe('fixtureNames', () => {
  it('lists the JSON files of a folder without their extension, sorted', async () => {
    expect(await fixtureNames(dir)).toEqual(['broken', 'small']);
  });

  it('lists the shipped sets by default, and nothing for a folder that does not exist', async () => {
    expect(await fixtureNames()).toEqual(expect.arrayContaining(['default', 'empty', 'every-status', 'large']));
    expect(await fixtureNames(join(dir, 'missing'))).toEqual([]);
  });
});

describe('readFixture', () => {
  it('reads a set by name, with or without .json', async () => {
    expect(await readFixture('small', dir)).toEqual({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    expect(await readFixture('small.json', dir)).toEqual(await readFixture('small', dir));
    expect((await readFixture('empty')).pets).toEqual([]);
  });

  it.each(['../small', '..', '.hidden', 'a/b', 'nested/../small', '', 'a b', '-dash', 'small\0'])(
    'refuses the name %j: it could leave the folder or is not a plain name',
    async (name) => {
      const error = await refusal(() => readFixture(name, dir));
      expect(error.toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
      expect(error.message).toContain("letters, digits, '.', '_' and '-' only");
    },
  );

  it('answers 404 for a set that does not exist, naming those that do', async () => {
    const error = await refusal(() => readFixture('nope', dir));
    expect(error.toBody()).toEqual({ code: 'not_found', status: 404, message: "No fixture set 'nope'. Available: broken, small." });
  });

  it('answers 400 for a file that is not JSON', async () => {
    const error = await refusal(() => readFixture('broken', dir));
    expect(error.toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(error.message).toMatch(/^Fixture set 'broken' is not valid JSON: /);
  });
});

describe('resolveFixture', () => {
  const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
  const tom = { id: 2, name: 'Tom', categoryId: 2 };

  it('takes pets as an array or as a set, with its nextId', () => {
    expect(resolveFixture([rex, tom], checkPet)).toEqual({ pets: [rex, tom] });
    expect(resolveFixture({ description: 'two', pets: [rex, tom], nextId: 10 }, checkPet)).toEqual({ pets: [rex, tom], nextId: 10 });
    expect(resolveFixture({ pets: [] }, checkPet)).toEqual({ pets: [] });
  });

  it('generates the pets of a generator header, as the seeding does; it wins over "pets"', () => {
    expect(resolveFixture({ generate: { seed: 5, count: 20 } }, checkPet)).toEqual({ pets: generatePets(5, 20) });
    expect(resolveFixture({ generate: { seed: 5, count: 3 }, pets: [rex] }, checkPet).pets).toEqual(generatePets(5, 3));
  });

  it('takes the highest id that leaves the next id exact', () => {
    const id = Number.MAX_SAFE_INTEGER - 1;
    expect(resolveFixture([{ ...rex, id }], checkPet).pets[0]?.id).toBe(id);
  });

  it.each([
    [null, 'A fixture set is a JSON object'],
    ['pets', 'A fixture set is a JSON object'],
    [{}, 'A fixture set needs "pets" (an array of Pet) or "generate" ({seed, count}).'],
    [{ pets: 'Rex' }, 'A fixture set needs "pets"'],
    [{ pets: [], nextId: 0 }, '"nextId" must be a positive integer.'],
    [{ pets: [], nextId: 1.5 }, '"nextId" must be a positive integer.'],
    [{ pets: [], nextId: '2' }, '"nextId" must be a positive integer.'],
    [{ generate: null }, '"generate" needs a non-negative integer "seed" and a "count" between 0 and 1000000.'],
    [{ generate: { seed: -1, count: 1 } }, '"generate" needs'],
    [{ generate: { seed: 1 } }, '"generate" needs'],
    [{ generate: { seed: 1, count: 1_000_001 } }, '"generate" needs'],
    [[rex, { ...tom, id: 1 }], 'Nothing was loaded. Record 1 has id 1, already used by record 0.'],
    [[{ ...rex, id: Number.MAX_SAFE_INTEGER }], `Nothing was loaded. Record 0 has id ${Number.MAX_SAFE_INTEGER}; ids go up to ${Number.MAX_SAFE_INTEGER - 1}`],
  ])('refuses %j with a 400 saying why', async (set, message) => {
    const error = await refusal(() => resolveFixture(set, checkPet));
    expect(error.toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(error.message).toContain(message);
  });

  it.each([
    [[rex, { id: 2, categoryId: 2 }], "'name'"],
    [[rex, tom, { ...tom, id: 3, status: 'lost' }], 'status'],
    [[{ ...rex, extra: true }], 'extra'],
    [[rex, 'Tom'], 'object'],
  ])('refuses a set with an invalid pet, naming the record and what is wrong: %j', async (pets, named) => {
    const error = await refusal(() => resolveFixture({ pets }, checkPet));
    expect(error.message).toMatch(/^Nothing was loaded\. /);
    expect(error.message).toContain(`Record ${pets.length - 1} `);
    expect(error.message).toContain(named);
  });
});
