/**
 * An int64 categoryId past 2^53 in every mode: stateful, example and
 * dynamic (Prism in process, whose own request validation must neither
 * refuse nor round it), `Prefer` in stateful mode, and what the control
 * plane shows of the traffic: the journal's bodies and a recorded pact.
 * Texts are compared, never values JSON.parse has rounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOf, type Control } from '../support/control-client.js';
import { postRaw } from '../support/error-check.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

const MAX = '9223372036854775807';
const BODY = `{"name":"Max","categoryId":${MAX}}`;

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => {
  sb = await startTestSandbox(['--mode', 'stateful']);
  ctl = controlOf(sb);
}, 120_000);
afterAll(() => sb.stop());

/** The journal's text for the last request, after clearing it before the request. */
async function journaled(send: () => Promise<unknown>): Promise<string> {
  expect((await ctl('DELETE', '/journal')).status).toBe(200);
  await send();
  return (await ctl('GET', '/journal')).text;
}

describe('every mode accepts the whole int64 range and keeps its digits in the journal', () => {
  it.each<[string, string | undefined]>([
    ['example', undefined],
    ['dynamic', undefined],
    ['stateful', 'code=201'],
    ['stateful', 'code=201, dynamic=true'],
  ])('%s mode, Prefer %s: 201, and the journal shows the request body exactly', { timeout: 120_000 }, async (mode, prefer) => {
    expect((await ctl('PUT', '/mode', { json: { mode } })).status).toBe(200);
    try {
      let status = 0;
      const text = await journaled(async () => {
        const init = postRaw(BODY);
        const res = await sb.op('createPet', '/pets', prefer ? { ...init, headers: { ...init.headers, prefer } } : init);
        status = res.status;
        expect(res.text).not.toContain('9223372036854775808');
      });
      expect(status).toBe(201);
      expect(text).toContain(`"requestBody":${BODY}`);
      expect(text).toContain('"specValid":true');
    } finally {
      await ctl('PUT', '/mode', { json: { mode: 'stateful' } });
    }
  });

  it('outside int64 is a 400 in a Prism mode too', { timeout: 120_000 }, async () => {
    expect((await ctl('PUT', '/mode', { json: { mode: 'dynamic' } })).status).toBe(200);
    try {
      const res = await sb.op('createPet', '/pets', postRaw('{"name":"Over","categoryId":9223372036854775808}'));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("'categoryId'");
    } finally {
      await ctl('PUT', '/mode', { json: { mode: 'stateful' } });
    }
  });
});

describe('stateful mode, journal and pact', () => {
  it('the created pet, its journal entry and the recorded pact all carry 9223372036854775807', { timeout: 60_000 }, async () => {
    expect((await ctl('POST', '/reset', { json: { empty: true } })).status).toBe(200);
    expect((await ctl('DELETE', '/journal')).status).toBe(200);
    const created = await sb.op('createPet', '/pets', postRaw(BODY));
    expect(created.text).toBe(`{"id":1,"name":"Max","categoryId":${MAX}}`);
    const got = await sb.op('getPet', '/pets/1');
    expect(got.text).toBe(created.text);
    const journal = (await ctl('GET', '/journal')).text;
    expect(journal).toContain(`"requestBody":${BODY}`);
    expect(journal).toContain(`"responseBody":${created.text}`);
    const pact = await ctl('GET', '/pact?consumer=int64-client');
    expect(pact.status).toBe(200);
    expect(pact.text).toContain(`"content":${BODY}`);
    expect(pact.text).toContain(`"content":${created.text}`);
    expect(pact.text).toContain(`"categoryId":${MAX},"status":null}`);
    expect(pact.text).not.toContain('9223372036854775808');
  });
});
