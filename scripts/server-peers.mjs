#!/usr/bin/env node
/**
 * Prints the optional peers a server uses (Prism's modes, PostgreSQL, the
 * MCP server, OpenTelemetry's tracing) at the versions of the lock file, as
 * `npm install` arguments: the Dockerfile installs them beside the package, and so does the image the
 * Testcontainers module's test builds (test/support/podman/sandbox-image.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_PEERS } from './server-bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages;
console.log(SERVER_PEERS.map((name) => `${name}@${lock[`node_modules/${name}`].version}`).join(' '));
