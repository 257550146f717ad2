/**
 * The interface's types the package's main entry exports (`Pet`, `NewPet`,
 * `PetStatus`, `ErrorBody`...), against the spec and against what the
 * sandbox answers. The `expectTypeOf` and `@ts-expect-error` lines are
 * checked by `npm run typecheck` (tsc reads test/); the rest runs here.
 */
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createSandbox,
  type ControlError,
  type BadRequestErrorBody,
  type ControlBody,
  type ErrorBody,
  type ListPetsQuery,
  type NewPet,
  type Pet,
  type Pets,
  type PetStatus,
  type PetStoreOperations,
  type UnauthorizedErrorBody,
} from '../../../src/index.js';
import type * as Msw from '../../../src/msw.js';
import type * as MswBrowser from '../../../src/msw-browser.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';

type Schema = { enum?: unknown[]; required?: string[]; properties?: Record<string, unknown> };
const schemas = (loadSpec().document as { components: { schemas: Record<string, Schema> } }).components.schemas;

/** Every status, typed by the exported union: `satisfies` refuses a value outside it, the type check below one missing. */
const STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[];
/** A Pet's fields, each a key of the exported type; the type check below fails on one missing. */
const PET_FIELDS = ['id', 'name', 'categoryId', 'status'] as const satisfies readonly (keyof Pet)[];

const sandbox = await createSandbox({ seed: 3, count: 2 });
const headers = { authorization: 'Bearer sandbox-key' };
afterAll(() => sandbox.close());

describe("the interface's types, as the spec has them", () => {
  it('PetStatus is the union of the spec enum', () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<'available' | 'pending' | 'sold'>();
    expectTypeOf<(typeof STATUSES)[number]>().toEqualTypeOf<PetStatus>();
    expect([...STATUSES]).toEqual(schemas.PetStatus?.enum);
  });

  it("Pet and NewPet have the spec's fields, required as the spec requires them", () => {
    expectTypeOf<(typeof PET_FIELDS)[number]>().toEqualTypeOf<keyof Pet>();
    expect(Object.keys(schemas.Pet?.properties ?? {})).toEqual([...PET_FIELDS]);
    expectTypeOf<Pet>().toEqualTypeOf<{ id: number; name: string; categoryId: number; status?: PetStatus }>();
    expect(schemas.Pet?.required).toEqual(['id', 'name', 'categoryId']);
    expectTypeOf<NewPet>().toEqualTypeOf<{ name: string; categoryId: number; status?: PetStatus }>();
    expect(schemas.NewPet?.required).toEqual(['name', 'categoryId']);
    expectTypeOf<Pets>().toEqualTypeOf<Pet[]>();
    // @ts-expect-error: a NewPet needs its categoryId
    const missing: NewPet = { name: 'Rex' };
    // @ts-expect-error: a status the spec does not have
    const lost: PetStatus = 'lost';
    expect([missing, lost]).toHaveLength(2);
  });

  it('ErrorBody is { code, message, status }; the 400 and 401 bodies fix their status', () => {
    expectTypeOf<ErrorBody>().toEqualTypeOf<{ code: string; message: string; status: number }>();
    expect(schemas.Error?.required).toEqual(['code', 'message', 'status']);
    expectTypeOf<BadRequestErrorBody['status']>().toEqualTypeOf<400>();
    expectTypeOf<UnauthorizedErrorBody['status']>().toEqualTypeOf<401>();
    expectTypeOf<BadRequestErrorBody>().toExtend<ErrorBody>();
    // The control plane's errors have the same body: a ControlError's is an ErrorBody.
    expectTypeOf<ControlError['body']>().toEqualTypeOf<ErrorBody | undefined>();
  });

  it("ListPetsQuery is listPets' query, and the operations are typed by operationId", () => {
    expectTypeOf<ListPetsQuery>().toEqualTypeOf<{ limit?: number; status?: PetStatus }>();
    expectTypeOf<PetStoreOperations['createPet']['requestBody']['content']['application/json']>().toEqualTypeOf<NewPet>();
    expectTypeOf<PetStoreOperations['getPet']['responses'][200]['content']['application/json']>().toEqualTypeOf<Pet>();
  });

  it('the msw entries, in Node and in the browser, export the same Pet, NewPet, PetStatus and ErrorBody', () => {
    expectTypeOf<Msw.Pet>().toEqualTypeOf<Pet>();
    expectTypeOf<MswBrowser.Pet>().toEqualTypeOf<Pet>();
    expectTypeOf<Msw.NewPet>().toEqualTypeOf<NewPet>();
    expectTypeOf<MswBrowser.PetStatus>().toEqualTypeOf<PetStatus>();
    expectTypeOf<MswBrowser.ErrorBody>().toEqualTypeOf<ErrorBody>();
  });
});

describe("the interface's types, against the sandbox's answers", () => {
  it("a created pet is a Pet: its fields are the type's, and it loads back as a fixture set", async () => {
    const body: NewPet = { name: 'Typed', categoryId: 2, status: 'pending' };
    const created = await sandbox.fetch('/v1/pets', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Pet;
    expect(Object.keys(pet).every((key) => (PET_FIELDS as readonly string[]).includes(key))).toBe(true);
    expect(pet).toEqual({ ...body, id: expect.any(Number) as number });
    // A Pet from a response is what a workspace's `load` takes.
    expectTypeOf<Pet>().toExtend<NonNullable<ControlBody<'loadFixture'>['pets']>[number]>();
    const loaded = await sandbox.workspace().load({ pets: [pet] });
    expect(loaded.count).toBe(1);
  });

  it('an error answer is an ErrorBody with exactly its three fields', async () => {
    const query: ListPetsQuery = { limit: 0 };
    const refused = await sandbox.fetch(`/v1/pets?limit=${query.limit}`, { headers });
    const error = (await refused.json()) as BadRequestErrorBody;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'status']);
    expect(error.status).toBe(400);
  });
});
