/**
 * The in-process fetch's Response with its body in memory must behave as a
 * standard Response of the same body: each way of reading gives the same
 * value, a body is read once, a second read and a clone after a read are
 * refused alike, and it is a Response.
 */
import { describe, expect, it } from 'vitest';
import { bufferedResponse } from '../../../src/adapters/buffered-response.js';

const TEXT = '{"name":"Rex","tags":["é","🐶"]}';
const init = { status: 201, headers: { 'content-type': 'application/json', 'x-request-id': 'r1' } };
type Read = (r: Response) => Promise<unknown>;

const READS: Record<string, Read> = {
  text: (r) => r.text(),
  json: (r) => r.json(),
  arrayBuffer: async (r) => [...new Uint8Array(await r.arrayBuffer())],
  bytes: async (r) => [...(await (r as Response & { bytes(): Promise<Uint8Array> }).bytes())],
  blob: async (r) => {
    const blob = await r.blob();
    return { type: blob.type, text: await blob.text() };
  },
  body: async (r) => new Response(r.body).text(),
};

/** What a read gives, or the name of the error it throws. */
const outcome = (read: () => Promise<unknown>) =>
  read().then(
    (value) => ({ value }),
    (error: unknown) => ({ error: (error as Error).name }),
  );

describe.each([
  ['text', TEXT],
  ['bytes', new TextEncoder().encode(TEXT)],
  // A small Node Buffer is a view on a shared 8 KiB pool: its slice() is a view too, and its buffer holds other data.
  ['a pooled Node Buffer', Buffer.concat([Buffer.from(TEXT)])],
])('a buffered Response of %s', (_label, content) => {
  const pair = () => [new Response(content, init), bufferedResponse(content, init)] as const;

  it('is a Response with the status and headers given', () => {
    const [standard, buffered] = pair();
    expect(buffered).toBeInstanceOf(Response);
    expect([buffered.status, buffered.ok, [...buffered.headers]]).toEqual([standard.status, standard.ok, [...standard.headers]]);
  });

  it.each(Object.keys(READS))('reads as a standard one does with %s, once', async (name) => {
    const read = READS[name] as Read;
    const [standard, buffered] = pair();
    expect(buffered.bodyUsed).toBe(false);
    expect(await outcome(() => read(buffered))).toEqual(await outcome(() => read(standard)));
    expect(buffered.bodyUsed).toBe(standard.bodyUsed);
    expect(await outcome(() => buffered.text())).toEqual(await outcome(() => standard.text()));
  });

  it('clones before a read, and refuses to after one, as a standard one does', async () => {
    const [standard, buffered] = pair();
    const copies = [standard.clone(), buffered.clone()];
    expect(await Promise.all(copies.map((c) => c.json()))).toEqual([JSON.parse(TEXT), JSON.parse(TEXT)]);
    await Promise.all([standard.text(), buffered.text()]);
    expect(() => buffered.clone()).toThrow(TypeError);
    expect(() => standard.clone()).toThrow(TypeError);
  });
});
