/**
 * JSON bodies must be UTF-8 (RFC 8259, section 8.1), without a byte order
 * mark. Sent as exact bytes over a real socket: a body that is not UTF-8 is
 * 415 and stores nothing, on /v1 and on the control plane, and the journal
 * shows what was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/store/journal/types.js';
import { rawRequest } from '../support/raw-http.js';
import { controlOf, type Control } from '../support/control-client.js';
import { KEY, startTestSandbox, type CallResult, type TestSandbox } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';
import { expectError } from '../support/error-check.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => {
  sb = await startTestSandbox(['--count', '3']);
  ctl = controlOf(sb);
});
afterAll(() => sb.stop());

/** POSTs exactly `body` (bytes, written as latin1 so each char is one byte) to `path`. */
async function postBytes(path: string, body: Buffer, headers: Record<string, string>): Promise<CallResult> {
  const head = [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Length: ${body.length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  const res = await rawRequest(Number(new URL(sb.origin).port), Buffer.concat([Buffer.from(head, 'latin1'), body]));
  return { status: res.status, headers: new Headers(res.headers), body: JSON.parse(res.body) as unknown, text: res.body };
}

const createPet = (body: Buffer, contentType = 'application/json') =>
  postBytes('/v1/pets', body, { Authorization: `Bearer ${KEY}`, 'Content-Type': contentType });
const bytes = (latin1: string) => Buffer.from(latin1, 'latin1');
const exported = async () => (await ctl('GET', '/export')).text;
const lastEntry = async () => ((await ctl('GET', '/journal?limit=1')).body.entries as JournalEntry[])[0];

describe('/v1 bodies that are not UTF-8', () => {
  it.each([
    ['a byte that never occurs in UTF-8', '{"name":"\xff","categoryId":1}'],
    ['a lone continuation byte', '{"name":"R\x80x","categoryId":1}'],
    ['an overlong encoding of "/"', '{"name":"\xc0\xaf","categoryId":1}'],
    ['an encoded surrogate', '{"name":"\xed\xa0\x80","categoryId":1}'],
    ['a sequence cut short', '{"name":"\xe2\x82","categoryId":1}'],
    ['Latin-1 text', '{"name":"Caf\xe9","categoryId":1}'],
  ])('%s -> 415 unsupported_media_type, nothing stored', async (_label, body) => {
    const before = await exported();
    const res = await createPet(bytes(body));
    expectError(res, 415, 'unsupported_media_type');
    await expectSpecValid('createPet', res);
    expect(res.body.message).toContain('UTF-8');
    expect(await exported()).toBe(before);
  });

  it('the refused pet is not listed, and the next create gets the next id', async () => {
    const listed = async () => (await sb.call('/pets?limit=100')).body as { id: number; name: string }[];
    const before = await listed();
    expect((await createPet(bytes('{"name":"\xff","categoryId":1}'))).status).toBe(415);
    expect(await listed()).toEqual(before);
    const next = await sb.call('/pets', { method: 'POST', json: { name: 'After', categoryId: 1 } });
    expect(next.body.id).toBe(Math.max(...before.map((p) => p.id)) + 1);
  });

  it('is journaled as the text it was sent, invalid bytes shown as U+FFFD, never as a JSON value', async () => {
    const sent = bytes('{"name":"\xff","categoryId":1}');
    const res = await createPet(sent);
    expect(await lastEntry()).toMatchObject({
      method: 'POST',
      path: '/v1/pets',
      status: 415,
      requestBody: { truncated: false, size: sent.length, text: '{"name":"\ufffd","categoryId":1}' },
      responseBody: res.body,
      // createPet does not document 415: the journal says the answer is outside the spec.
      specValid: false,
    });
  });

  it('a charset other than UTF-8 -> 415, nothing stored', async () => {
    const before = await exported();
    const utf16 = Buffer.from('{"name":"Rex","categoryId":1}', 'utf16le');
    expectError(await createPet(utf16, 'application/json; charset=utf-16le'), 415, 'unsupported_media_type');
    expect(await exported()).toBe(before);
  });
});

describe('/v1 bodies that are UTF-8', () => {
  it('any characters, up to 4 bytes each, are stored exactly', async () => {
    const name = 'Rex ж € 🐕 \u0000 \u2028';
    const res = await createPet(Buffer.from(JSON.stringify({ name, categoryId: 1 }), 'utf8'), 'application/json; charset=UTF-8');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name });
    expect((await sb.call(`/pets/${res.body.id}`)).body).toEqual(res.body);
  });

  it('with a byte order mark -> 400 invalid_request (RFC 8259: a sender must not add one), nothing stored', async () => {
    const before = await exported();
    const res = await createPet(Buffer.concat([bytes('\xef\xbb\xbf'), Buffer.from('{"name":"Rex","categoryId":1}')]));
    expectError(res, 400, 'invalid_request');
    await expectSpecValid('createPet', res);
    expect(res.body.message).toContain('byte order mark');
    expect(await exported()).toBe(before);
    expect((await lastEntry())?.requestBody).toEqual({ truncated: false, size: 32, text: '\ufeff{"name":"Rex","categoryId":1}' });
  });
});

describe('control-plane bodies', () => {
  const control = (path: string, body: Buffer) => ctl('POST', path, { body, headers: { 'content-type': 'application/json' } });

  it('not UTF-8 -> 415, nothing loaded', async () => {
    const before = await exported();
    const res = await control('/load', bytes('{"pets":[{"id":1,"name":"\xff","categoryId":1}]}'));
    expectError(res, 415, 'unsupported_media_type');
    expect(await exported()).toBe(before);
  });

  it('with a byte order mark -> 400, nothing reset', async () => {
    const before = await exported();
    expectError(await control('/reset', Buffer.concat([bytes('\xef\xbb\xbf'), Buffer.from('{"empty":true}')])), 400, 'invalid_request');
    expect(await exported()).toBe(before);
  });

  it('UTF-8 -> loaded as sent', async () => {
    const res = await control('/load', Buffer.from(JSON.stringify({ pets: [{ id: 1, name: 'Ünïcode 🐕', categoryId: 1 }] }), 'utf8'));
    expect(res.status).toBe(200);
    expect(JSON.parse(await exported())).toEqual({ nextId: 2, pets: [{ id: 1, name: 'Ünïcode 🐕', categoryId: 1 }] });
  });
});
