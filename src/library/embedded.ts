import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_SPEC_FILE, FIXTURES_DIR, PACKAGE_VERSION, SPEC_FILE } from '../config/paths.js';
import { readSpecDocument } from '../openapi/spec-cache.js';

/** What a sandbox in a browser is made from: the specs as JSON documents, the fixture sets as texts by name, the version. */
export interface EmbeddedSources {
  spec: Record<string, unknown>;
  controlSpec: Record<string, unknown>;
  fixtures: Record<string, string>;
  version: string;
}

/**
 * The package's specs, fixture sets and version, read from its files (on
 * Node: tests of the browser sandbox). The browser build puts in this
 * module's place one with the same values written into it at build time
 * (scripts/browser-bundle.mjs), so the bundle reads no file.
 */
export function embeddedSources(): EmbeddedSources {
  const fixtures = Object.fromEntries(
    readdirSync(FIXTURES_DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -5), readFileSync(join(FIXTURES_DIR, file), 'utf8')]),
  );
  return { spec: readSpecDocument(SPEC_FILE), controlSpec: readSpecDocument(CONTROL_SPEC_FILE), fixtures, version: PACKAGE_VERSION };
}
