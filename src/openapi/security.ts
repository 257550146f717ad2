/**
 * What each operation of a spec requires to be let in, as the spec declares
 * it (`security`, the operation's else the document's, over
 * `components.securitySchemes`), and the credential a request presents for
 * it. The sandbox's key is whatever credential a scheme carries: an HTTP
 * scheme's credentials (`Authorization: Bearer <key>`, and Basic's whole
 * base64 text), an API key's header, query parameter or cookie; OAuth 2 and
 * OpenID Connect send a bearer token. Matching the key is the caller's,
 * in constant time (`kernel/auth.ts`); this module only finds it.
 */
import { credentialsOf } from './authorization.js';
import type { OperationSpec, Spec } from './spec.js';

type Json = Record<string, unknown>;

/** One scheme as the sandbox reads it: an `Authorization` scheme, or an API key in a header, the query or a cookie. */
export type SchemeUse = { kind: 'http'; scheme: string } | { kind: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string };

/**
 * An operation's requirement: open (no requirement, or an empty one among
 * its alternatives), or its alternatives, each the schemes presented
 * together. `undefined` in an alternative: a scheme the sandbox cannot read
 * (mutual TLS, a name `securitySchemes` lacks), so that alternative is never met.
 */
export interface OperationSecurity {
  open: boolean;
  alternatives: (SchemeUse | undefined)[][];
}

/** What a request presents for an operation: open, or the key it sent (if any) and the 401's `WWW-Authenticate` for HTTP schemes. */
export type Credential = { open: true; key?: string } | { open: false; key?: string; challenge?: string };

/** A request's headers (lower-case names, as Node keeps them) and parsed query. */
export type CredentialReader = (headers: Readonly<Record<string, string | string[] | undefined>>, query: Readonly<Record<string, unknown>>) => Credential;

/** A scheme of `components.securitySchemes` as read. */
function schemeUse(raw: unknown): SchemeUse | undefined {
  const scheme = (raw ?? {}) as Json;
  switch (scheme.type) {
    case 'http':
      return typeof scheme.scheme === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(scheme.scheme) ? { kind: 'http', scheme: scheme.scheme } : undefined;
    case 'apiKey':
      return typeof scheme.name === 'string' && (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie') ?
          { kind: 'apiKey', in: scheme.in, name: scheme.name }
        : undefined;
    case 'oauth2':
    case 'openIdConnect':
      return { kind: 'http', scheme: 'bearer' };
    default:
      return undefined;
  }
}

/** The requirement `declared` (a `security` list) states, its schemes read from `components.securitySchemes`; none is open. */
function requirementOf(spec: Spec, declared: unknown): OperationSecurity {
  const requirements = Array.isArray(declared) ? (declared as unknown[]) : [];
  const schemes = ((spec.document.components as Json | undefined)?.securitySchemes ?? {}) as Json;
  const alternatives = requirements.map((requirement) =>
    Object.keys((requirement ?? {}) as Json).map((name) => (Object.hasOwn(schemes, name) ? schemeUse(schemes[name]) : undefined)),
  );
  return { open: alternatives.length === 0 || alternatives.some((schemesOf) => schemesOf.length === 0), alternatives };
}

/** The security the document itself requires (its top-level `security`): what a request no operation takes is judged by. */
export const documentSecurity = (spec: Spec): OperationSecurity => requirementOf(spec, spec.document.security);

/** The security an operation requires: its own `security`, else the document's; none is open. */
export function securityOf(spec: Spec, op: OperationSpec): OperationSecurity {
  const paths = spec.document.paths as Record<string, Record<string, Json | undefined>> | undefined;
  return requirementOf(spec, paths?.[op.path]?.[op.method]?.security ?? spec.document.security);
}

/** One value of a cookie header, by name. */
function cookie(header: string, name: string): string | undefined {
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name)
      return pair
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

/** A single text value: a repeated header or parameter (a list) names no credential, and neither does an empty one. */
const single = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The credential a request presents for one scheme, if any. */
function presented(use: SchemeUse, headers: Parameters<CredentialReader>[0], query: Parameters<CredentialReader>[1]): string | undefined {
  if (use.kind === 'http') {
    const value = single(headers.authorization);
    return value === undefined ? undefined : credentialsOf(value, use.scheme);
  }
  if (use.in === 'query') return single(query[use.name]);
  if (use.in === 'header') return single(headers[use.name.toLowerCase()]);
  const header = single(headers.cookie);
  return header === undefined ? undefined : single(cookie(header, use.name));
}

/** `bearer` as `WWW-Authenticate` names it: `Bearer`. */
const challengeName = (scheme: string) => scheme.charAt(0).toUpperCase() + scheme.slice(1).toLowerCase();

/** The reader of one operation's credential: the first alternative whose every scheme is presented gives the key (its first scheme's). */
function readerOf(security: OperationSecurity): CredentialReader {
  const readable = security.alternatives.filter((schemes): schemes is SchemeUse[] => schemes.length > 0 && schemes.every((s) => s !== undefined));
  const challenges = [...new Set(readable.flatMap((schemes) => schemes.flatMap((s) => (s.kind === 'http' ? [challengeName(s.scheme)] : []))))];
  const challenge = challenges.length > 0 ? challenges.join(', ') : undefined;
  const keyOf: (...request: Parameters<CredentialReader>) => string | undefined = (headers, query) => {
    for (const schemes of readable) {
      const keys = schemes.map((use) => presented(use, headers, query));
      if (keys.every((key) => key !== undefined)) return keys[0];
    }
    return undefined;
  };
  return (headers, query) => {
    const key = keyOf(headers, query);
    const found = key === undefined ? {} : { key };
    if (security.open) return { open: true, ...found };
    return { open: false, ...found, ...(challenge === undefined ? {} : { challenge }) };
  };
}

/** Each operation's credential reader, by `operationId`, made once. */
export function createCredentialReader(spec: Spec): ReadonlyMap<string, CredentialReader> {
  return new Map([...spec.operations].map(([operationId, op]) => [operationId, readerOf(securityOf(spec, op))]));
}

/** The reader of the credential the document's own `security` asks for (`documentSecurity`). */
export const createDocumentCredentialReader = (spec: Spec): CredentialReader => readerOf(documentSecurity(spec));

/** How a scheme is presented, as a 401's message shows it. */
function shown(use: SchemeUse | undefined): string {
  if (use === undefined) return 'a credential the sandbox cannot read';
  if (use.kind === 'http') return `Authorization: ${challengeName(use.scheme)} <API_KEY>`;
  if (use.in === 'header') return `${use.name}: <API_KEY>`;
  return use.in === 'query' ? `the query parameter ${use.name}=<API_KEY>` : `the cookie ${use.name}=<API_KEY>`;
}

/**
 * What to send for an operation (without one: for the document's own
 * security), for a 401's message: `send X-Api-Key: <API_KEY>`, alternatives joined by `or`.
 */
export function describeSecurity(spec: Spec, op: OperationSpec | undefined): string {
  const { open, alternatives } = op ? securityOf(spec, op) : documentSecurity(spec);
  if (open && alternatives.every((schemes) => schemes.length === 0)) return 'no credential is needed';
  const ways = alternatives.filter((schemes) => schemes.length > 0).map((schemes) => schemes.map(shown).join(' and '));
  return `send ${[...new Set(ways)].join(' or ')}`;
}
