import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { PACKAGE_ROOT } from '../config/paths.js';
import type * as Yaml from 'yaml';

type Json = Record<string, unknown>;

/**
 * The package's own cache folder (the usual `node_modules/.cache`), not a
 * shared temporary folder where another user could plant a file.
 */
export const SPEC_CACHE_DIR = join(PACKAGE_ROOT, 'node_modules', '.cache', 'petstore-sandbox');

const require = createRequire(import.meta.url);

/**
 * Reads an OpenAPI document written in YAML, through a JSON copy keyed by a
 * hash of the YAML text: the YAML parser was the largest single cost of
 * starting the sandbox (docs/performance.md). Any edit of the YAML changes the key, so a copy is never
 * stale. A document that JSON cannot carry exactly is never cached, and
 * where the cache cannot be written the YAML is simply parsed every time.
 */
export function readSpecDocument(file: string): Json {
  const text = readFileSync(file, 'utf8');
  const hash = bytesToHex(sha256(utf8ToBytes(text))).slice(0, 32);
  const cached = join(SPEC_CACHE_DIR, `${basename(file)}-${hash}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as Json;
  } catch {
    // Not cached yet (or unreadable): parse the YAML.
  }
  // Loaded only when needed, for the reason above.
  const { parse } = require('yaml') as typeof Yaml;
  const document = parse(text) as Json;
  const json = JSON.stringify(document);
  if (json !== undefined && isDeepStrictEqual(JSON.parse(json), document)) {
    try {
      mkdirSync(SPEC_CACHE_DIR, { recursive: true });
      // Written aside, then renamed: a reader never sees half a file.
      const temp = `${cached}.${process.pid}.tmp`;
      writeFileSync(temp, json);
      renameSync(temp, cached);
    } catch {
      // A read-only installation: no cache.
    }
  }
  return document;
}
