/**
 * Run by journal-accounting.test.ts as a process of its own, under
 * `node --expose-gc`, so that nothing else lives in its heap: a sandbox in
 * this process takes `count` rejected POSTs of `body` (from stdin), each with
 * a key of its own, with `--journal-size` as given. Prints one JSON line: the
 * heap kept per request once collected, and the bytes the journals account
 * per request.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { startSandbox } from '../../src/server/sandbox.js';
import { sendRejected } from '../support/rejected-load.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const [count = 0, journalSize = 200] = process.argv.slice(2).map(Number);
const body = readFileSync(0, 'utf8');

const dir = mkdtempSync(join(tmpdir(), 'petstore-heap-'));
const args = [
  '--port',
  '0',
  '--data',
  join(dir, 'db.json'),
  '--open-keys',
  '--count',
  '0',
  '--journal-memory',
  String(2 ** 30),
  '--journal-size',
  String(journalSize),
];
const sandbox = await startSandbox(loadConfig([...args, '--log-level', 'warn'], {}).config);
const measure = async () => {
  for (let i = 0; i < 4; i++) gc();
  return { heap: process.memoryUsage().heapUsed, bytes: (await sandbox.backend.journal.memory()).bytes };
};
try {
  // Warm first: compiled code, caches and sockets are there before the first measure.
  await sendRejected(sandbox.origin, body, 'warm', 500);
  const before = await measure();
  await sendRejected(sandbox.origin, body, 'probe', count);
  const after = await measure();
  console.log(JSON.stringify({ heap: (after.heap - before.heap) / count, accounted: (after.bytes - before.bytes) / count }));
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
