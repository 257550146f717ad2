import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { requestViolations, responseViolations } from '../../../../src/modes/proxy/violations.js';
import { endToEnd } from '../../../../src/modes/proxy/upstream.js';
import { responseIssues } from '../../../../src/openapi/response-issues.js';
import { operation } from '../../../../src/openapi/spec.js';
import { createValidators } from '../../../../src/openapi/validate.js';
import type { ForwardRequest } from '../../../../src/modes/proxy/types.js';
import { spec } from '../../../support/operation-request.js';

const validators = createValidators(spec);
const check = responseIssues(spec, validators);
const json = { 'content-type': 'application/json' };

function request(operationId: string | undefined, over: Partial<ForwardRequest> & { headers?: Record<string, string> } = {}) {
  const op = operationId ? operation(spec, operationId) : undefined;
  const headers = { authorization: 'Bearer k', ...over.headers };
  const method = op?.method.toUpperCase() ?? 'GET';
  const forward: ForwardRequest = { method, rawHeaders: [], op, params: {}, query: {}, url: '/pets', body: undefined, ...over, headers };
  return requestViolations(op && validators.request(op), forward);
}

describe('a proxied request against the spec', () => {
  it.each([
    ['a valid listPets', request('listPets', { query: { limit: '5' } }), []],
    ['a limit out of range', request('listPets', { query: { limit: '0' } }), [{ at: 'request', in: 'query', name: 'limit' }]],
    ['a petId that is no integer', request('getPet', { params: { petId: 'abc' } }), [{ at: 'request', in: 'path', name: 'petId' }]],
    ['no bearer key', request('listPets', { headers: { authorization: '' } }), [{ at: 'request', in: 'header', name: 'Authorization' }]],
    ['no operation', request(undefined, { url: '/owners?x=1' }), [{ at: 'request', in: 'operation', message: 'no operation of the spec at GET /v1/owners' }]],
    [
      'a body field the schema does not allow',
      request('createPet', { headers: json, body: Buffer.from('{"name":"Rex","categoryId":1,"colour":"red"}') }),
      [{ at: 'request', in: 'body', name: 'colour' }],
    ],
    ['a body that is not JSON', request('createPet', { headers: { 'content-type': 'text/plain' }, body: Buffer.from('Rex') }), [{ in: 'body', name: '' }]],
    ['a valid gzipped body', request('createPet', { headers: { ...json, 'content-encoding': 'gzip' }, body: gzipSync('{"name":"Rex","categoryId":1}') }), []],
    [
      'a body where none is taken',
      request('listPets', { headers: json, body: Buffer.from('{}') }),
      [{ in: 'body', message: 'must be absent: listPets takes none' }],
    ],
  ])('%s', (_name, found, expected) => {
    expect(found).toEqual(expected.map((e) => expect.objectContaining(e)));
  });
});

const answer = (status: number, body: string, headers: Record<string, string> = json) => ({ status, headers, body: Buffer.from(body) });

describe("an upstream's answer against the spec", () => {
  const getPet = operation(spec, 'getPet');
  const pinned = { ...json, ...getPet.responses.get(200)?.fixedHeaders };
  const lower = Object.fromEntries(Object.entries(pinned).map(([k, v]) => [k.toLowerCase(), v]));
  const pet = '{"id":1,"name":"Rex","categoryId":1,"status":"available"}';

  it.each([
    ['a valid getPet 200', answer(200, pet, lower), []],
    ['an undocumented status', answer(422, '{"code":"x","message":"y","status":422}'), [{ at: 'response', in: 'status' }]],
    ['an id of the wrong type', answer(200, pet.replace('"id":1', '"id":"1"'), lower), [{ at: 'response', in: 'body', name: 'id' }]],
    ['an HTML body', answer(200, '<html></html>', { ...lower, 'content-type': 'text/html' }), [{ at: 'response', in: 'body', name: '' }]],
    ['a pinned header missing', answer(200, pet), Object.keys(getPet.responses.get(200)?.fixedHeaders ?? {}).map((name) => ({ in: 'header', name }))],
  ])('%s', (_name, sent, expected) => {
    expect(responseViolations(check, getPet, sent).violations).toEqual(expected.map((e) => expect.objectContaining(e)));
  });

  it('knows the headers getPet pins (else the missing-header case above checks nothing)', () => {
    expect(Object.keys(getPet.responses.get(200)?.fixedHeaders ?? {})).toEqual(['Deprecation', 'Sunset', 'Link']);
  });

  it('reads the JSON value of a valid answer for the journal', () => {
    expect(responseViolations(check, getPet, answer(200, pet, lower)).value).toEqual(JSON.parse(pet));
  });
});

describe('headers passed on', () => {
  it('keep their names and order, group repeats, and leave out hop-by-hop ones and those Connection names', () => {
    const raw = [
      'Content-Type',
      'application/json',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      '1',
      'Set-Cookie',
      'a=1',
      'Keep-Alive',
      'timeout=5',
      'set-cookie',
      'b=2',
      'Content-Length',
      '2',
    ];
    expect(endToEnd(raw, ['content-length'])).toEqual([
      ['Content-Type', 'application/json'],
      ['Set-Cookie', ['a=1', 'b=2']],
    ]);
  });
});
