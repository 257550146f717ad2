/** The coverage report's text formats say a count of one in the singular: `1 request`, `1 call`, never `1 requests`. */
import { describe, expect, it } from 'vitest';
import { buildCoverage } from '../../../src/control/coverage.js';
import { coverageJunit, coverageMarkdown } from '../../../src/control/coverage-formats.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';

const { operations } = loadSpec();
const report = (counts: { operationId: string; status: number; count: number }[]) => buildCoverage(operations, counts, { workspace: 'ws' });

describe('coverage formats', () => {
  it('one request and one call: singular in Markdown and JUnit', () => {
    const one = report([{ operationId: 'getPet', status: 200, count: 1 }]);
    const markdown = coverageMarkdown(one);
    expect(markdown).toContain('Workspace `ws`: 1 request counted.');
    expect(markdown).toContain('`getPet` (GET /v1/pets/{petId}): 1 call; its removal');
    expect(coverageJunit(one)).toContain('<system-out>1 request</system-out>');
    expect(`${markdown}${coverageJunit(one)}`).not.toMatch(/\b1 (requests|calls)\b/);
  });

  it('several, or none: plural', () => {
    const two = report([{ operationId: 'getPet', status: 200, count: 2 }]);
    expect(coverageMarkdown(two)).toContain('Workspace `ws`: 2 requests counted.');
    expect(coverageMarkdown(two)).toContain('2 calls; its removal');
    expect(coverageJunit(two)).toContain('<system-out>2 requests</system-out>');
    expect(coverageMarkdown(report([]))).toContain('Workspace `ws`: 0 requests counted.');
  });
});
