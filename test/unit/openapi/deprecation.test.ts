import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deprecationHeadersOf, stabilityOf } from '../../../src/openapi/deprecation.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import { indexSpec, type OperationSpec, type Spec } from '../../../src/openapi/spec.js';

type Json = Record<string, unknown>;

const specFile = (name: string) => fileURLToPath(new URL(`../../specs/${name}`, import.meta.url));
const opOf = (spec: Spec, operationId: string) => spec.operations.get(operationId) as OperationSpec;
const headersOf = (spec: Spec, operationId: string) => deprecationHeadersOf(spec.document, opOf(spec, operationId));

describe('deprecation headers of the test specs', () => {
  it("inventory's restockItem: Deprecation at the epoch (no date given) and Sunset from x-sunset; its other operations none", () => {
    const spec = loadSpec(specFile('inventory-v2.yaml'));
    expect(headersOf(spec, 'restockItem')).toEqual({ Deprecation: '@0', Sunset: 'Mon, 30 Jun 2031 00:00:00 GMT' });
    for (const operationId of spec.operations.keys()) if (operationId !== 'restockItem') expect(headersOf(spec, operationId)).toEqual({});
  });

  it.each([
    ['spec/openapi.yaml', undefined],
    ['test/specs/petstore-1.1.yaml', specFile('petstore-1.1.yaml')],
  ])("%s: none added, getPet's own pinned Deprecation and Sunset win", (_name, file) => {
    const spec = loadSpec(file);
    expect(opOf(spec, 'getPet').deprecated).toBe(true);
    for (const operationId of spec.operations.keys()) expect(headersOf(spec, operationId)).toEqual({});
  });

  it('stability: x-stability of petstore 1.1 and inventory, none on the Pet Store 1.0', () => {
    const v11 = loadSpec(specFile('petstore-1.1.yaml'));
    expect(stabilityOf(v11.document, opOf(v11, 'listOrders'))).toBe('beta');
    expect(stabilityOf(v11.document, opOf(v11, 'cancelOrder'))).toBe('experimental');
    expect(stabilityOf(v11.document, opOf(v11, 'listPets'))).toBeUndefined();
    const inventory = loadSpec(specFile('inventory-v2.yaml'));
    expect(stabilityOf(inventory.document, opOf(inventory, 'restockItem'))).toBe('experimental');
    const v10 = loadSpec();
    for (const op of v10.operations.values()) expect(stabilityOf(v10.document, op)).toBeUndefined();
  });
});

/** One operation `op` with the given fields, its 200 answer with `headers`. */
function specOf(fields: Json, headers: Json = {}): Spec {
  return indexSpec('hand-made.yaml', {
    openapi: '3.0.3',
    info: { title: 'Hand-made', version: '1.0.0' },
    paths: { '/thing': { get: { operationId: 'op', ...fields, responses: { '200': { description: 'OK.', headers } } } } },
  });
}

const headersOfFields = (fields: Json, headers?: Json) => headersOf(specOf(fields, headers), 'op');

describe('deprecation headers of hand-made documents', () => {
  it('Deprecation from x-deprecated-since or x-deprecation-date: a date, a date-time with an offset, Unix seconds, a Date', () => {
    expect(headersOfFields({ deprecated: true, 'x-deprecated-since': '2025-01-01' })).toEqual({ Deprecation: '@1735689600' });
    expect(headersOfFields({ deprecated: true, 'x-deprecation-date': '2025-01-01T02:00:00+02:00' })).toEqual({ Deprecation: '@1735689600' });
    expect(headersOfFields({ deprecated: true, 'x-deprecated-since': '2025-01-01t00:00:30.9' })).toEqual({ Deprecation: '@1735689630' });
    expect(headersOfFields({ deprecated: true, 'x-deprecated-since': 1735689600 })).toEqual({ Deprecation: '@1735689600' });
    expect(headersOfFields({ deprecated: true, 'x-deprecated-since': new Date(Date.UTC(2025, 0, 1)) })).toEqual({ Deprecation: '@1735689600' });
    expect(headersOfFields({ deprecated: true, 'x-deprecated-since': 'last year' })).toEqual({ Deprecation: '@0' });
  });

  it('Sunset as an HTTP date of x-sunset, a date or a date-time; none for another value', () => {
    expect(headersOfFields({ deprecated: true, 'x-sunset': '2031-06-30T12:30:00Z' })).toEqual({ Deprecation: '@0', Sunset: 'Mon, 30 Jun 2031 12:30:00 GMT' });
    expect(headersOfFields({ deprecated: true, 'x-sunset': '2031-06-30 12:30' })).toEqual({ Deprecation: '@0', Sunset: 'Mon, 30 Jun 2031 12:30:00 GMT' });
    expect(headersOfFields({ deprecated: true, 'x-sunset': 'soon' })).toEqual({ Deprecation: '@0' });
    expect(headersOfFields({ deprecated: true, 'x-sunset': '2031-02-30' })).toEqual({ Deprecation: '@0' });
  });

  it('nothing for an operation not deprecated, whatever its extensions', () => {
    expect(headersOfFields({ 'x-sunset': '2031-06-30', 'x-deprecated-since': '2025-01-01' })).toEqual({});
    expect(headersOfFields({ deprecated: false, 'x-sunset': '2031-06-30' })).toEqual({});
  });

  it('a header the spec pins (any case) is left to the pinned value, the other one still added', () => {
    const pinned = (name: string, value: string) => ({ [name]: { schema: { type: 'string', enum: [value] } } });
    const fields = { deprecated: true, 'x-sunset': '2031-06-30', 'x-deprecated-since': '2025-01-01' };
    expect(headersOfFields(fields, pinned('sunset', 'Tue, 01 Jul 2031 00:00:00 GMT'))).toEqual({ Deprecation: '@1735689600' });
    expect(headersOfFields(fields, pinned('Deprecation', '@1'))).toEqual({ Sunset: 'Mon, 30 Jun 2031 00:00:00 GMT' });
    // A header documented without one pinned value pins nothing.
    expect(headersOfFields(fields, { Sunset: { schema: { type: 'string' } } })).toEqual({
      Deprecation: '@1735689600',
      Sunset: 'Mon, 30 Jun 2031 00:00:00 GMT',
    });
  });

  it('stability: experimental and beta in any case; stable, another word or none is undefined', () => {
    const of = (value: unknown) => {
      const spec = specOf(value === undefined ? {} : { 'x-stability': value });
      return stabilityOf(spec.document, opOf(spec, 'op'));
    };
    expect(of('Experimental')).toBe('experimental');
    expect(of(' beta ')).toBe('beta');
    for (const value of ['stable', 'alpha', 1, undefined]) expect(of(value)).toBeUndefined();
  });
});
