import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../../src/kernel/auth.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import {
  createCredentialReader,
  createDocumentCredentialReader,
  describeSecurity,
  documentSecurity,
  type CredentialReader,
} from '../../../src/openapi/security.js';
import { indexSpec, type Spec } from '../../../src/openapi/spec.js';

type Json = Record<string, unknown>;

const specFile = (name: string) => fileURLToPath(new URL(`../../specs/${name}`, import.meta.url));

function readerOf(spec: Spec, operationId: string): CredentialReader {
  const reader = createCredentialReader(spec).get(operationId);
  if (!reader) throw new Error(`no reader for ${operationId}`);
  return reader;
}

const describeOf = (spec: Spec, operationId: string) =>
  describeSecurity(spec, spec.operations.get(operationId) as NonNullable<ReturnType<Spec['operations']['get']>>);

describe.each([
  ['spec/openapi.yaml (the embedded Pet Store 1.0)', undefined],
  ['test/specs/petstore-1.1.yaml', specFile('petstore-1.1.yaml')],
])('the security of %s', (_name, file) => {
  const spec = loadSpec(file);

  it('every operation takes a bearer key, read exactly as the Pet Store reads it (kernel/auth.ts), with the Bearer challenge', () => {
    const authorization = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[Bb][Ee][Aa][Rr][Ee][Rr] {0,3}[A-Za-z0-9\-._~+/=]{0,12} {0,2}$/),
      fc.constantFrom('Bearer abc', 'bearer  abc== ', 'Basic abc', 'Bearer', 'Bearer a b', ''),
    );
    for (const operationId of spec.operations.keys()) {
      const read = readerOf(spec, operationId);
      fc.assert(
        fc.property(authorization, (value) => {
          const headers = { authorization: value };
          const key = bearerToken(headers);
          expect(read(headers, {})).toEqual({ open: false, ...(key === undefined ? {} : { key }), challenge: 'Bearer' });
        }),
        { numRuns: 200 },
      );
      expect(read({}, {})).toEqual({ open: false, challenge: 'Bearer' });
      expect(read({ authorization: ['Bearer a', 'Bearer b'] }, {})).toEqual({ open: false, challenge: 'Bearer' });
      expect(describeOf(spec, operationId)).toBe('send Authorization: Bearer <API_KEY>');
    }
  });
});

describe('the security of test/specs/inventory-v2.yaml', () => {
  const spec = loadSpec(specFile('inventory-v2.yaml'));

  it('its operations take the X-Api-Key header (Node lower-cases the name), with no HTTP challenge', () => {
    for (const operationId of ['listItems', 'createItem', 'getItem', 'replaceItem', 'updateItem', 'deleteItem', 'restockItem']) {
      const read = readerOf(spec, operationId);
      expect(read({ 'x-api-key': 'k-1' }, {})).toEqual({ open: false, key: 'k-1' });
      expect(read({ authorization: 'Bearer k-1' }, {})).toEqual({ open: false });
      expect(read({ 'x-api-key': ['k-1', 'k-2'] }, {})).toEqual({ open: false });
      expect(read({ 'x-api-key': '' }, { 'X-Api-Key': 'k-1' })).toEqual({ open: false });
      expect(describeOf(spec, operationId)).toBe('send X-Api-Key: <API_KEY>');
    }
  });

  it('/health is open: `security: []` on the operation overrides the document', () => {
    const read = readerOf(spec, 'health');
    expect(read({}, {})).toEqual({ open: true });
    expect(describeOf(spec, 'health')).toBe('no credential is needed');
  });
});

/** A document of one operation per entry of `securities` (`op0`, `op1`...), with `schemes` and the document's `security`. */
function specOf(schemes: Json, securities: (unknown[] | undefined)[], security?: unknown[]): Spec {
  const paths = Object.fromEntries(
    securities.map((s, i) => [`/op${i}`, { get: { operationId: `op${i}`, ...(s ? { security: s } : {}), responses: { '200': { description: 'OK.' } } } }]),
  );
  return indexSpec('hand-made.yaml', {
    openapi: '3.0.3',
    info: { title: 'Hand-made', version: '1.0.0' },
    ...(security ? { security } : {}),
    paths,
    components: { securitySchemes: schemes },
  });
}

const SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'basic' },
  header: { type: 'apiKey', in: 'header', name: 'X-Key' },
  query: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
  oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://example.com/token', scopes: {} } } },
  oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://example.com/.well-known/openid-configuration' },
  mtls: { type: 'mutualTLS' },
};

describe('the security of hand-made documents', () => {
  it('an API key in the query or a cookie', () => {
    const spec = specOf(SCHEMES, [[{ query: [] }], [{ cookie: [] }]]);
    expect(readerOf(spec, 'op0')({}, { api_key: 'q-1' })).toEqual({ open: false, key: 'q-1' });
    expect(readerOf(spec, 'op0')({}, { api_key: ['q-1', 'q-2'] })).toEqual({ open: false });
    expect(readerOf(spec, 'op1')({ cookie: 'theme=dark; session="c-1"; other=1' }, {})).toEqual({ open: false, key: 'c-1' });
    expect(readerOf(spec, 'op1')({ cookie: 'sessions=c-1' }, {})).toEqual({ open: false });
    expect(describeOf(spec, 'op0')).toBe('send the query parameter api_key=<API_KEY>');
    expect(describeOf(spec, 'op1')).toBe('send the cookie session=<API_KEY>');
  });

  it('HTTP Basic: the whole base64 credential is the key, with the Basic challenge; OAuth 2 and OpenID Connect send a bearer token', () => {
    const spec = specOf(SCHEMES, [[{ basic: [] }], [{ oauth: ['read'] }], [{ oidc: [] }]]);
    expect(readerOf(spec, 'op0')({ authorization: 'Basic dXNlcjpwYXNz' }, {})).toEqual({ open: false, key: 'dXNlcjpwYXNz', challenge: 'Basic' });
    expect(readerOf(spec, 'op0')({ authorization: 'Bearer dXNlcjpwYXNz' }, {})).toEqual({ open: false, challenge: 'Basic' });
    for (const operationId of ['op1', 'op2']) {
      expect(readerOf(spec, operationId)({ authorization: 'Bearer t-1' }, {})).toEqual({ open: false, key: 't-1', challenge: 'Bearer' });
      expect(describeOf(spec, operationId)).toBe('send Authorization: Bearer <API_KEY>');
    }
    expect(describeOf(spec, 'op0')).toBe('send Authorization: Basic <API_KEY>');
  });

  it('alternatives: the first one presented gives the key; every HTTP scheme among them is in the challenge', () => {
    const spec = specOf(SCHEMES, [[{ header: [] }, { bearer: [] }, { basic: [] }]]);
    const read = readerOf(spec, 'op0');
    expect(read({ 'x-key': 'h-1' }, {})).toEqual({ open: false, key: 'h-1', challenge: 'Bearer, Basic' });
    expect(read({ authorization: 'Bearer b-1' }, {})).toEqual({ open: false, key: 'b-1', challenge: 'Bearer, Basic' });
    expect(read({ authorization: 'Bearer b-1', 'x-key': 'h-1' }, {})).toEqual({ open: false, key: 'h-1', challenge: 'Bearer, Basic' });
    expect(read({}, {})).toEqual({ open: false, challenge: 'Bearer, Basic' });
    expect(describeOf(spec, 'op0')).toBe('send X-Key: <API_KEY> or Authorization: Bearer <API_KEY> or Authorization: Basic <API_KEY>');
  });

  it('schemes required together: all presented, the first one is the key', () => {
    const spec = specOf(SCHEMES, [[{ header: [], query: [] }]]);
    const read = readerOf(spec, 'op0');
    expect(read({ 'x-key': 'h-1' }, {})).toEqual({ open: false });
    expect(read({ 'x-key': 'h-1' }, { api_key: 'q-1' })).toEqual({ open: false, key: 'h-1' });
    expect(describeOf(spec, 'op0')).toBe('send X-Key: <API_KEY> and the query parameter api_key=<API_KEY>');
  });

  it('a scheme the sandbox cannot read, or a name no scheme has, is an alternative never met', () => {
    const spec = specOf(SCHEMES, [[{ mtls: [] }, { header: [] }], [{ nowhere: [] }]]);
    expect(readerOf(spec, 'op0')({ 'x-key': 'h-1' }, {})).toEqual({ open: false, key: 'h-1' });
    expect(readerOf(spec, 'op1')({ 'x-key': 'h-1', authorization: 'Bearer b' }, {})).toEqual({ open: false });
  });

  it('open: no security anywhere, `[]`, `[{}]`; an empty alternative makes the key optional, still read when sent', () => {
    const spec = specOf(SCHEMES, [undefined, [], [{}], [{}, { header: [] }]]);
    const undeclared = specOf(SCHEMES, [undefined]);
    expect(readerOf(undeclared, 'op0')({ 'x-key': 'h-1' }, {})).toEqual({ open: true });
    const withDocument = specOf(SCHEMES, [undefined, [], [{}], [{}, { header: [] }]], [{ bearer: [] }]);
    expect(readerOf(withDocument, 'op0')({}, {})).toEqual({ open: false, challenge: 'Bearer' });
    for (const s of [spec, withDocument]) {
      expect(readerOf(s, 'op1')({ authorization: 'Bearer b' }, {})).toEqual({ open: true });
      expect(readerOf(s, 'op2')({}, {})).toEqual({ open: true });
      expect(readerOf(s, 'op3')({}, {})).toEqual({ open: true });
      expect(readerOf(s, 'op3')({ 'x-key': 'h-1' }, {})).toEqual({ open: true, key: 'h-1' });
    }
    expect(describeOf(spec, 'op1')).toBe('no credential is needed');
    expect(describeOf(spec, 'op3')).toBe('send X-Key: <API_KEY>');
  });

  it("the document's own security, whatever its operations declare: what a request no operation takes is judged by", () => {
    const spec = specOf(SCHEMES, [[], [{ header: [] }]], [{ bearer: [] }, { query: [] }]);
    expect(documentSecurity(spec)).toEqual({
      open: false,
      alternatives: [[{ kind: 'http', scheme: 'bearer' }], [{ kind: 'apiKey', in: 'query', name: 'api_key' }]],
    });
    const read = createDocumentCredentialReader(spec);
    expect(read({ authorization: 'Bearer b-1' }, {})).toEqual({ open: false, key: 'b-1', challenge: 'Bearer' });
    expect(read({ 'x-key': 'h-1' }, { api_key: 'q-1' })).toEqual({ open: false, key: 'q-1', challenge: 'Bearer' });
    expect(read({ 'x-key': 'h-1' }, {})).toEqual({ open: false, challenge: 'Bearer' });
    expect(describeSecurity(spec, undefined)).toBe('send Authorization: Bearer <API_KEY> or the query parameter api_key=<API_KEY>');
    const none = specOf(SCHEMES, [[{ header: [] }]]);
    expect(documentSecurity(none)).toEqual({ open: true, alternatives: [] });
    expect(createDocumentCredentialReader(none)({ 'x-key': 'h-1' }, {})).toEqual({ open: true });
    expect(describeSecurity(none, undefined)).toBe('no credential is needed');
  });
});
