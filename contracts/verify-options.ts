/** The options of `npm run verify` (verify.ts), apart so the docs' completeness test can read them without running a verification. */
export const VERIFY_OPTIONS = {
  target: { type: 'string' },
  spec: { type: 'string', multiple: true },
  key: { type: 'string' },
  'admin-url': { type: 'string' },
  'admin-token': { type: 'string' },
  pacts: { type: 'string' },
  report: { type: 'string', multiple: true },
  force: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
