/**
 * Checkpoints on storage the sandbox may not write (the sandbox running as
 * nobody; root would ignore the permissions): a restore or a copy answers
 * 503 naming the cause and leaves the workspace byte for byte as it was; a
 * save answers 503 and leaves the checkpoints as they were; once writable
 * again, the same restore gives back what was saved, without a restart.
 */
import { chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlOfChild, expectError, exportWorkspace } from '../support/ledger-calls.js';
import { createNobodyFolders, nobodyUnavailable } from '../support/nobody.js';
import { killSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const MAIN = 'main-key';
const OTHER = 'other-key';
const ARGS = ['--api-keys', `${MAIN},${OTHER}`, '--count', '5'];
const PERMISSION = /permission/i;

// Needs root (to switch user and chown) and a repository nobody can read; otherwise the user would bypass the permissions under test.
const unavailable = nobodyUnavailable();
const skipped = unavailable ? ` (skipped: ${unavailable})` : '';

// Folders for nobody (a temporary folder is private to root until opened up), and the sandbox started as nobody in them.
const nobody = createNobodyFolders('petstore-checkpoint-perm-');

describe('checkpoints on a data folder the sandbox may not write (running as nobody)', () => {
  it.skipIf(unavailable)(`a failed restore, copy or save changes nothing, and works once writable${skipped}`, { timeout: 120_000 }, async () => {
    const dir = nobody.folder('data');
    let sb: ChildSandbox | undefined;
    try {
      sb = await nobody.start(join(dir, 'db.json'), ARGS);
      const ctl = controlOfChild(sb.origin);
      expect((await ctl('POST', '/reset', { key: MAIN, json: { seed: 3, count: 7 } })).status).toBe(200);
      const atSave = await exportWorkspace(sb.origin, MAIN);
      expect((await ctl('POST', '/checkpoints', { key: MAIN, json: { name: 'kept' } })).status).toBe(201);
      expect((await ctl('POST', '/reset', { key: MAIN, json: { seed: 4, count: 2 } })).status).toBe(200);
      expect((await ctl('POST', '/reset', { key: OTHER, json: { seed: 5, count: 1 } })).status).toBe(200);
      const before = await exportWorkspace(sb.origin, MAIN);
      const otherBefore = await exportWorkspace(sb.origin, OTHER);
      const folder = join(dir, 'db.checkpoints', readdirSync(join(dir, 'db.checkpoints'))[0] as string);

      chmodSync(dir, 0o555);
      chmodSync(folder, 0o555);
      try {
        expectError(await ctl('POST', '/checkpoints/kept/restore', { key: MAIN }), 503, 'service_unavailable', PERMISSION);
        expect((await exportWorkspace(sb.origin, MAIN)).text).toBe(before.text);
        const copy = await ctl('POST', '/copy', { key: MAIN, headers: { 'x-sandbox-target-key': OTHER }, json: { checkpoint: 'kept' } });
        expectError(copy, 503, 'service_unavailable', PERMISSION);
        expect((await exportWorkspace(sb.origin, OTHER)).text).toBe(otherBefore.text);
        expectError(await ctl('POST', '/checkpoints', { key: MAIN, json: { name: 'kept', overwrite: true } }), 503, 'service_unavailable', PERMISSION);
        expectError(await ctl('POST', '/checkpoints', { key: MAIN, json: { name: 'another' } }), 503, 'service_unavailable', PERMISSION);
        // Reading still works: the checkpoint is listed as it was saved.
        const list = await ctl('GET', '/checkpoints', { key: MAIN });
        expect(list.body.checkpoints).toMatchObject([{ name: 'kept', count: 7, nextId: 8 }]);
      } finally {
        chmodSync(folder, 0o755);
        chmodSync(dir, 0o755);
      }
      expect(readdirSync(folder)).toEqual(['kept.json']);
      expect((await ctl('POST', '/checkpoints/kept/restore', { key: MAIN })).status).toBe(200);
      expect((await exportWorkspace(sb.origin, MAIN)).text).toBe(atSave.text);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
  });
});
