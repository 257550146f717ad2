/** When the sandbox leaves the young generation as the operator sized it (src/server/young-generation.ts). */
import { describe, expect, it } from 'vitest';
import { youngGenerationSized } from '../../src/server/young-generation.js';

describe('youngGenerationSized', () => {
  it('is false when neither node arguments nor NODE_OPTIONS size the young generation', () => {
    expect(youngGenerationSized([], '')).toBe(false);
    expect(youngGenerationSized(['--import', 'tsx', '--max-old-space-size=64'], '--enable-source-maps')).toBe(false);
  });

  it('is true for any of the flags that size it, in node arguments or NODE_OPTIONS, with dashes or underscores', () => {
    expect(youngGenerationSized(['--max-semi-space-size=32'], '')).toBe(true);
    expect(youngGenerationSized(['--min-semi-space-size', '4'], '')).toBe(true);
    expect(youngGenerationSized([], '--enable-source-maps --max_semi_space_size=8')).toBe(true);
    expect(youngGenerationSized(['--semi-space-growth-factor=4'], '')).toBe(true);
  });
});
