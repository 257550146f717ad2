/**
 * The form of an `Authorization: <scheme> <credentials>` header, one rule
 * for every scheme the sandbox reads: the embedded Pet Store's bearer key
 * (`kernel/auth.ts`) and the HTTP schemes a served spec declares
 * (`openapi/security.ts`). The credentials are one token68 (RFC 9110,
 * section 11.2): letters, digits and `-._~+/`, then any `=` padding, which
 * a bearer token and Basic's base64 alike are written in.
 */

/** Each scheme's pattern, made once: a spec declares a handful of schemes at most. */
const forms = new Map<string, RegExp>();

/** The credentials of `value` if it is `<scheme> <token68>` (the scheme's case ignored, spaces around tolerated), else undefined. */
export function credentialsOf(value: string, scheme: string): string | undefined {
  const name = scheme.toLowerCase();
  let form = forms.get(name);
  if (!form) {
    form = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +([A-Za-z0-9\\-._~+/]+=*) *$`, 'i');
    forms.set(name, form);
  }
  return form.exec(value)?.[1];
}
