/** The package ships no types: it parses an RFC 7240 `Prefer` header into camel-cased preferences. */
declare module 'parse-prefer-header' {
  /** A preference without a value (`Prefer: dynamic`) comes back as `true`. */
  function parsePreferHeader(prefer: string | string[] | undefined): Record<string, string | true>;
  export = parsePreferHeader;
}
