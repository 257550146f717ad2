/** Which specs have the Pet Store's own operations, answered by its own mode: the embedded ones, compared strictly. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import { hasPetStoreOperations } from '../../../src/openapi/petstore-operations.js';
import { indexSpec, type Spec } from '../../../src/openapi/spec.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const specFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const embedded = loadSpec(specFile('spec/openapi.yaml'));
const petstore11 = loadSpec(specFile('test/specs/petstore-1.1.yaml'));

/** The Pet Store 1.1 changed by `change`, as a spec. */
function changed(change: (document: Json) => void): Spec {
  const document = structuredClone(petstore11.document) as Json;
  change(document);
  return indexSpec('changed.yaml', document);
}

describe('hasPetStoreOperations', () => {
  it('finds them in the embedded spec and in the Pet Store 1.1 beside its orders', () => {
    expect(hasPetStoreOperations(embedded, embedded)).toBe(true);
    expect(hasPetStoreOperations(petstore11, embedded)).toBe(true);
  });

  it('ignores the words written for people: summaries, descriptions, examples, tags', () => {
    const spec = changed((d) => {
      d.paths['/pets'].get.summary = 'Animals';
      d.paths['/pets'].post.requestBody.content['application/json'].examples = {};
      d.components.schemas.Pet.description = 'Another description.';
      d.paths['/pets/{petId}'].get.tags = ['animals'];
    });
    expect(hasPetStoreOperations(spec, embedded)).toBe(true);
  });

  it('refuses any change of what is answered or checked', () => {
    const changes: [string, (d: Json) => void][] = [
      ['a property added to Pet', (d) => (d.components.schemas.Pet.properties.age = { type: 'integer' })],
      ['NewPet requiring another field', (d) => d.components.schemas.NewPet.required.push('status')],
      ['a status more', (d) => d.components.schemas.PetStatus.enum.push('lost')],
      ['another limit', (d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 50)],
      ['another status code', (d) => (d.paths['/pets'].post.responses['200'] = d.paths['/pets'].post.responses['201'])],
      ['another sunset', (d) => (d.paths['/pets/{petId}'].get['x-sunset'] = '2031-01-01')],
      ['an operation renamed', (d) => (d.paths['/pets'].get.operationId = 'listAnimals')],
      [
        'another operation at /pets/{petId}',
        (d) => (d.paths['/pets/{petId}'].delete = { operationId: 'deletePet', responses: { '204': { description: 'Gone.' } } }),
      ],
      ['getPet elsewhere', (d) => ((d.paths['/animals/{petId}'] = d.paths['/pets/{petId}']), delete d.paths['/pets/{petId}'])],
    ];
    for (const [what, change] of changes) expect(hasPetStoreOperations(changed(change), embedded), what).toBe(false);
  });
});
