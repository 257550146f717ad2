/**
 * Builders of the differential's cases as data (a request with its name),
 * shared by every list of cases: a /v1 read or create with the key, a
 * control-plane call acting on the key's workspace.
 */
import { KEY } from '../harness.js';
import type { WireRequest } from './wire.js';

/** A case as written: its target before a fetch client's normalisation (corpus.ts applies it). */
export type Case = WireRequest;

export const key = { authorization: `Bearer ${KEY}` };
export const json = { ...key, 'content-type': 'application/json' };
/** The control plane, acting on KEY's workspace. */
export const admin = { authorization: 'Bearer sandbox-admin', 'x-sandbox-key': KEY };
export const adminJson = { ...admin, 'content-type': 'application/json' };
export const b64 = (text: string | Uint8Array): string => Buffer.from(text).toString('base64');

export const get = (name: string, target: string, headers: Record<string, string> = key): Case => ({ name, method: 'GET', target, headers });

export const post = (name: string, body: string | Uint8Array | undefined, headers: Record<string, string> = json, target = '/v1/pets'): Case => ({
  name,
  method: 'POST',
  target,
  headers,
  ...(body === undefined ? {} : { body: b64(body) }),
});

export const control = (name: string, method: string, target: string, body?: unknown): Case => ({
  name,
  method,
  target: `/__sandbox${target}`,
  headers: body === undefined ? admin : adminJson,
  ...(body === undefined ? {} : { body: b64(JSON.stringify(body)) }),
});
