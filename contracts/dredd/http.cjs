'use strict';
/** The two small HTTP calls the Dredd hooks make besides Dredd's own. */

const TIMEOUT_MS = 10_000;

async function call(url, init) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method} ${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A control-plane call with the admin token, in the workspace of the API key. */
function adminCall(s, method, path, body) {
  const headers = { Authorization: `Bearer ${s.adminToken}`, 'X-Sandbox-Key': s.key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return call(`${s.adminUrl.replace(/\/$/, '')}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** A call of the API under test with the key (`base` ends in the base path, e.g. `/v1`). */
function apiCall(s, base, method, path, body) {
  const headers = { Authorization: `Bearer ${s.key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return call(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

module.exports = { adminCall, apiCall };
