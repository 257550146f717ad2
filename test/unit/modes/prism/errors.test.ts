/**
 * The app validates before Prism, so Prism's own rejections cannot be
 * reached over HTTP. Here the real Prism engine gets requests the app would
 * have refused, and its problem+json failures must come out as the
 * sandbox's Error codes with stateful mode's statuses.
 */
import { INVALID_CONTENT_TYPE, NOT_ACCEPTABLE, ProblemJsonError, SCHEMA_TOO_COMPLEX, UNAUTHORIZED, UNPROCESSABLE_ENTITY } from '@stoplight/prism-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/kernel/errors.js';
import { fromPrismFailure } from '../../../../src/modes/prism/errors.js';
import { createPrismRunner, type PrismRunner } from '../../../../src/modes/prism/index.js';
import type { HttpOperation } from '../../../../src/modes/prism/types.js';
import type { PrismMock } from '../../../../src/modes/prism/mock-config.js';
import type { OperationRequest } from '../../../../src/kernel/operation.js';
import { operationRequest, spec } from '../../../support/operation-request.js';

let engine: PrismRunner;
beforeAll(async () => {
  engine = createPrismRunner([...spec.operations.keys()]);
  await engine.ready();
}, 120_000);

const request = (operationId: string, url: string, body?: unknown): OperationRequest =>
  operationRequest(operationId, {
    url,
    body,
    headers: { authorization: 'Bearer sandbox-key', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  });
const mock = (extra: Partial<PrismMock> = {}): PrismMock => ({ dynamic: false, seed: '1', ...extra });

/** What a call rejects with, or a failure if it does not reject. */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    (value) => new Error(`resolved with ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

describe('Prism answers mapped to sandbox errors', { timeout: 30_000 }, () => {
  it('an invalid path parameter (Prism: 422) is 404 not_found', async () => {
    const error = await rejection(engine.respond(request('getPet', '/pets/abc'), mock()));
    expect(error.toBody()).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('an invalid query on an operation with a documented 400 gets that 400 as an Error', async () => {
    const reply = await engine.respond(request('listPets', '/pets?limit=1000'), mock());
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('an invalid query (Prism: 422, where no 400 is documented) is 400 invalid_request naming the parameter', () => {
    const resource = { responses: [] } as unknown as HttpOperation;
    const violation = { location: ['query', 'limit'], message: 'Request query parameter limit must be <= 100' };
    const failure = ProblemJsonError.fromTemplate(UNPROCESSABLE_ENTITY, 'Your request is not valid', { validation: [violation] });
    const error = fromPrismFailure(failure, request('listPets', '/pets?limit=1000'), resource, mock());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(error.message).toContain('limit');
  });

  it('an invalid body on an operation with a documented 400 gets that 400 as an Error', async () => {
    const reply = await engine.respond(request('createPet', '/pets', { name: 'Rex' }), mock());
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('an undocumented forced code (Prism: 404 problem) is 400 listing the documented codes', async () => {
    const error = await rejection(engine.respond(request('listPets', '/pets'), mock({ code: 418 })));
    expect(error.toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(error.message).toContain('documented codes: 200, 400, 401');
  });

  it('passes no Prism header the spec does not document (no Content-type, no deprecation: true)', async () => {
    const reply = await engine.respond(request('getPet', '/pets/1'), mock());
    expect(reply.headers).toEqual({});
  });

  it('maps the other problem types Prism knows', () => {
    const resource = { responses: [] } as unknown as HttpOperation;
    const map = (error: Error) => fromPrismFailure(error, request('listPets', '/pets'), resource, mock());
    const unauthorized = map(ProblemJsonError.fromTemplate(UNAUTHORIZED, 'no'));
    expect(unauthorized).toBeInstanceOf(ApiError);
    expect((unauthorized as ApiError).toBody().code).toBe('unauthorized');
    expect((unauthorized as ApiError).headers['WWW-Authenticate']).toBe('Bearer');
    expect((map(ProblemJsonError.fromTemplate(INVALID_CONTENT_TYPE, 'no')) as ApiError).toBody()).toMatchObject({
      code: 'unsupported_media_type',
      status: 415,
    });
    expect((map(ProblemJsonError.fromTemplate(NOT_ACCEPTABLE, 'no')) as ApiError).toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
    // A server-side failure is not the client's: it stays an unexpected error (500, logged).
    const tooComplex = ProblemJsonError.fromTemplate(SCHEMA_TOO_COMPLEX, 'no');
    expect(map(tooComplex)).toBe(tooComplex);
  });
});
