'use strict';
/**
 * Checks a real Dredd response against spec/openapi.yaml: Dredd 14's
 * OpenAPI 3 support compares only the status and the exact Content-Type, so
 * a wrong type, a missing field or an Error whose `status` lies would pass
 * without this. CommonJS because Dredd loads hook files with proxyquire.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parse } = require('yaml');
const $RefParser = require('@apidevtools/json-schema-ref-parser');
const OpenAPIResponseValidator = require('openapi-response-validator').default;

const SPEC_PATH = join(__dirname, '..', '..', 'spec', 'openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

let loaded;
/** The spec, dereferenced once per process. */
function loadSpec() {
  loaded ??= $RefParser.dereference(parse(readFileSync(SPEC_PATH, 'utf8')));
  return loaded;
}

/** Every operation with a matcher for concrete paths such as `/pets/7`. */
async function operations() {
  const spec = await loadSpec();
  const out = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const method of METHODS) if (item[method]) out.push({ method: method.toUpperCase(), template, pattern, op: item[method] });
  }
  return out;
}

/** The operation a request path (without the base path) and method address, or undefined. */
async function findOperation(method, path) {
  const bare = path.split('?')[0];
  return (await operations()).find((o) => o.method === method.toUpperCase() && o.pattern.test(bare));
}

function header(headers, name) {
  const key = Object.keys(headers || {}).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

/**
 * Problems of one real response of `method path` (path relative to the base
 * address): status documented, body JSON and valid against the documented
 * schema, Error `status` equal to the HTTP status, pinned headers present
 * with their values. An empty list means the response keeps the contract.
 */
async function responseProblems(method, path, real) {
  const found = await findOperation(method, path);
  if (!found) return [`${method} ${path} is not an operation of spec/openapi.yaml`];
  const { op } = found;
  const id = op.operationId;
  const status = Number(real.statusCode);
  const documented = op.responses[String(status)];
  if (!documented) return [`${id}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
  const problems = [];
  let body;
  try {
    body = real.body === undefined || real.body === '' ? undefined : JSON.parse(real.body);
  } catch {
    const contentType = header(real.headers, 'content-type');
    return [`${id} ${status}: body is not JSON (Content-Type '${contentType}'): ${String(real.body).slice(0, 80)}`];
  }
  const schema = documented.content && documented.content['application/json'] && documented.content['application/json'].schema;
  if (schema) {
    const validator = new OpenAPIResponseValidator({ responses: { [String(status)]: { schema } } });
    const failure = validator.validateResponse(status, body);
    if (failure) {
      const details = failure.errors.map((e) => `${e.path || '(body)'} ${e.message}`).join('; ');
      problems.push(`${id} ${status}: body does not match the response schema: ${details}`);
    }
  }
  if (status >= 400 && (body === null || typeof body !== 'object' || body.status !== status)) {
    problems.push(`${id} ${status}: Error status ${body && body.status} differs from HTTP status ${status}`);
  }
  for (const [name, spec] of Object.entries(documented.headers || {})) {
    const value = header(real.headers, name);
    const pinned = spec.schema && spec.schema.enum;
    if (spec.required && value === undefined) problems.push(`${id} ${status}: header ${name} is missing`);
    else if (Array.isArray(pinned) && value !== undefined && !pinned.includes(value)) problems.push(`${id} ${status}: header ${name} is '${value}', expected ${pinned.join(' | ')}`);
  }
  return problems;
}

module.exports = { responseProblems, findOperation, SPEC_PATH };
