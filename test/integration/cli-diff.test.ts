/**
 * `petstore-sandbox diff OLD NEW` run as a user runs it: exit 0 when every
 * change is compatible, 1 when one breaks a consumer, 2 on a usage error or
 * a spec that cannot be read (one line naming the file); the report as
 * Markdown on stdout, or JSON, or in the files asked.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/spawn.js';
import { tempDir } from '../support/harness.js';

const V1_0 = 'spec/openapi.yaml';
const V1_1 = 'test/specs/petstore-1.1.yaml';
const dir = tempDir('petstore-diff-');

describe('petstore-sandbox diff', { timeout: 60_000 }, () => {
  it('exits 0 from 1.0 to 1.1, which only adds, with a Markdown table on stdout', async () => {
    const run = await runCli(['diff', V1_0, V1_1]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('## Spec changes: 0 breaking changes, 4 compatible changes');
    expect(run.stdout).toContain(`From \`${V1_0}\` (Pet Store 1.0.0) to \`${V1_1}\` (Pet Store 1.1.0).`);
    expect(run.stdout).toContain('| compatible | `GET /store/orders` (`listOrders`) | operation | added |');
  });

  it('exits 1 on a breaking change, listed before the compatible ones', async () => {
    const run = await runCli(['diff', V1_1, 'test/specs/diff/removed-success-status.yaml']);
    expect([run.code, run.stderr]).toEqual([1, '']);
    const rows = run.stdout.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Change'));
    expect(rows).toEqual([
      '| **breaking** | `POST /store/orders` (`placeOrder`) | response 201 | success status removed: a client expecting it gets another |',
      '| compatible | `POST /store/orders` (`placeOrder`) | response 200 | status added |',
    ]);
  });

  it('writes JSON with --format json: the two documents, the counts and each change', async () => {
    const run = await runCli(['diff', V1_1, 'test/specs/diff/new-required-field.yaml', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      old: { file: V1_1, title: 'Pet Store', version: '1.1.0' },
      new: { file: 'test/specs/diff/new-required-field.yaml', title: 'Pet Store', version: '1.1.0' },
      breaking: 1,
      compatible: 0,
      changes: [
        {
          breaking: true,
          kind: 'field-required',
          operation: 'POST /pets',
          operationId: 'createPet',
          where: 'request body: status',
          what: 'field `status` now required',
        },
      ],
    });
  });

  it('writes the files asked (--json, --markdown, --out in --format), nothing on stdout, a summary on stderr', async () => {
    const [json, markdown, out] = ['report.json', 'report.md', 'out.json'].map((name) => join(dir, name)) as [string, string, string];
    const run = await runCli(['diff', V1_1, 'test/specs/diff/compatible.yaml', '--json', json, '--markdown', markdown, '--out', out, '--format', 'json']);
    expect([run.code, run.stdout]).toEqual([0, '']);
    expect(run.stderr).toBe(`0 breaking changes, 5 compatible changes; written to ${out}, ${json}, ${markdown}.\n`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { breaking: number; changes: { kind: string; where: string }[] };
    expect(report.breaking).toBe(0);
    expect(report.changes.map((c) => `${c.kind} @ ${c.where}`)).toContain('field-added @ request body: nickname');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(report);
    expect(readFileSync(markdown, 'utf8')).toContain('| compatible | `GET /store/inventory` (`getInventory`) | operation | added |');
  });

  it('exits 2 with one line naming the file and its problem for a spec it cannot read or compare', async () => {
    const notOpenApi = join(dir, 'not-openapi.json');
    writeFileSync(notOpenApi, '{"swagger": "2.0", "paths": {}}');
    const cases: [string, string][] = [
      ['test/specs/missing.yaml', 'Cannot read the new spec test/specs/missing.yaml: no such file.'],
      ['test/specs/broken-yaml.yaml', 'Cannot read the new spec test/specs/broken-yaml.yaml: '],
      ['test/specs/broken-ref.yaml', "Cannot compare the new spec test/specs/broken-ref.yaml: $ref '#/components/schemas/Thing' points nowhere."],
      [notOpenApi, `Cannot compare the new spec ${notOpenApi}: not an OpenAPI 3 document (no \`openapi: 3.x\`).`],
    ];
    for (const [file, message] of cases) {
      const run = await runCli(['diff', V1_0, file]);
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toContain(`petstore-sandbox diff: ${message}`);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('exits 2 on a usage error, with the usage or the option named', async () => {
    const one = await runCli(['diff', V1_0]);
    expect([one.code, one.stdout]).toEqual([2, '']);
    expect(one.stderr).toContain('Usage: diff <old spec> <new spec>');
    const format = await runCli(['diff', V1_0, V1_1, '--format', 'junit']);
    expect([format.code, format.stderr]).toEqual([2, expect.stringContaining("--format must be one of json, markdown, got 'junit'.")]);
  });
});
