/**
 * The `Prefer` header as the sandbox reads it, without HTTP: the four
 * preferences it honours, everything else ignored (RFC 7240), and a 400
 * naming what the operation can do for a preference it cannot honour.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/kernel/errors.js';
import { documentedCodes, readPreferences } from '../../../src/kernel/preferences.js';
import { operationRequest } from '../../support/operation-request.js';

/** The preferences of a getPet request (documented: 200, 401, 404) with this `Prefer` header. */
const read = (prefer: string | undefined, operationId = 'getPet') =>
  readPreferences(operationRequest(operationId, { headers: prefer === undefined ? {} : { prefer } }));

/** The ApiError reading `prefer` throws. */
function refusal(prefer: string): ApiError {
  try {
    read(prefer);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`Prefer: ${prefer} was accepted`);
}

describe('documentedCodes', () => {
  it('lists the statuses the spec documents for the operation, ascending', () => {
    expect(documentedCodes(operationRequest('getPet'))).toEqual([200, 401, 404]);
    const created = documentedCodes(operationRequest('createPet'));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(created).toEqual(expect.arrayContaining([201, 400, 401]));
  });
});

describe('readPreferences', () => {
  it.each([
    [undefined, {}],
    ['', {}],
    ['code=404', { code: 404 }],
    ['CODE=401', { code: 401 }],
    // RFC 7240 allows whitespace around '='.
    ['code = 404', { code: 404 }],
    ['example=dog', { example: 'dog' }],
    ['example="a dog"', { example: 'a dog' }],
    ['dynamic', { dynamic: true }],
    ['dynamic=true', { dynamic: true }],
    ['dynamic=false', { dynamic: false }],
    ['dynamic=true, seed=42', { dynamic: true, seed: '42' }],
    ['code=200, example=cat, dynamic=false, seed=x', { code: 200, example: 'cat', dynamic: false, seed: 'x' }],
  ])('Prefer: %s -> %j', (prefer, expected) => {
    expect(read(prefer)).toEqual(expected);
  });

  it('ignores the preferences it does not support, as RFC 7240 asks', () => {
    expect(read('return=minimal, respond-async, wait=5, handling=strict')).toEqual({});
    expect(read('return=minimal, code=404')).toEqual({ code: 404 });
  });

  it('refuses a status the operation does not document, naming those it does', () => {
    const error = refusal('code=500');
    expect(error.toBody()).toEqual({
      code: 'invalid_request',
      status: 400,
      message: 'Prefer: code=500 is not a documented status of getPet; documented codes: 200, 401, 404.',
    });
  });

  it.each([
    ['code=abc', 'Prefer: code=abc is not a documented status of getPet'],
    ['code=4040', 'Prefer: code=4040 is not a documented status'],
    ['code=40', 'Prefer: code=40 is not a documented status'],
    ['code', 'Prefer: code=true is not a documented status'],
    ['example', 'Prefer: example needs the name of an example'],
    ['dynamic=yes', "Prefer: dynamic must be true or false, got 'yes'"],
    ['dynamic=1', "Prefer: dynamic must be true or false, got '1'"],
    ['seed', 'Prefer: seed needs a value'],
  ])('refuses Prefer: %s with a 400 saying why', (prefer, message) => {
    const error = refusal(prefer);
    expect(error.code).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });
});
