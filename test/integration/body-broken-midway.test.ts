/**
 * A create whose chunked body breaks Node's parser while the pipeline is
 * reading it: the server answers the parse error itself, and the body
 * reader's own failure that follows must not try to answer again (an
 * unhandled rejection would stop the process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { rawRequest } from '../support/raw-http.js';

let sb: TestSandbox;
beforeAll(async () => void (sb = await startTestSandbox()));
afterAll(() => sb.stop());

describe('a body that breaks the HTTP parser midway', () => {
  it('gets one 400 Error answer, stores nothing, and the sandbox goes on serving', async () => {
    const port = Number(new URL(sb.origin).port);
    const head =
      'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer sandbox-key\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    for (let i = 0; i < 5; i++) {
      const res = await rawRequest(port, `${head}5\r\n{"nam\r\nzz\r\n`, { end: false });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'invalid_request', status: 400 });
    }
    const list = await sb.call('/pets?limit=100');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(50);
  });
});
