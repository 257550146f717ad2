/**
 * Checks of `verify --report` files against the schemas CI systems use:
 * CTRF's published JSON schema (shipped by the `ctrf` package) with Ajv, and
 * the Jenkins JUnit XSD (schemas/junit-10.xsd, see schemas/README.md) with
 * xmllint from Debian's libxml2-utils. Neither shares code with the writers.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);

/** CTRF's JSON schema, as the `ctrf` package publishes it (beside its entry point: the package exports no path to it). */
export const CTRF_SCHEMA_FILE = join(dirname(require.resolve('ctrf')), 'ctrf-schema-0.0.json');

/** The Jenkins/Ant JUnit schema. */
export const JUNIT_XSD = fileURLToPath(new URL('./schemas/junit-10.xsd', import.meta.url));

// ajv-formats is CommonJS: how its default export arrives differs between loaders (as in src/openapi/validate.ts).
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const ctrfSchema = ajv.compile(JSON.parse(readFileSync(CTRF_SCHEMA_FILE, 'utf8')) as object);

/** The schema errors of a CTRF report (an empty list when it is valid). */
export function ctrfErrors(report: unknown): string[] {
  if (ctrfSchema(report)) return [];
  return (ctrfSchema.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}

/** The schema errors xmllint finds in a JUnit XML text (an empty list when it is valid). */
export function junitErrors(xml: string): string[] {
  const result = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, '-'], { input: xml, encoding: 'utf8' });
  if (result.error) throw new Error(`xmllint could not run (Debian's libxml2-utils): ${result.error.message}`);
  if (result.status === 0) return [];
  return result.stderr.split('\n').filter((line) => line && !/fails to validate$/.test(line));
}
