import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearest } from '../../src/config/did-you-mean.js';

describe('did you mean', () => {
  it.each([
    ['port', 'port', 0],
    ['prot', 'port', 1],
    ['journl-size', 'journal-size', 1],
    ['statsu', 'status', 1],
    ['seed', 'count', 5],
    ['', 'abc', 3],
  ])('%s to %s: %i edits', (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
    expect(editDistance(b, a)).toBe(edits);
  });

  it.each([
    ['prot', ['host', 'port', 'seed'], 'port'],
    ['journl-size', ['journal-memory', 'journal-size'], 'journal-size'],
    ['jornal', ['journal', 'reset'], 'journal'],
    ['SEED', ['seed'], 'seed'],
    // Too far from every known word: no suggestion rather than a wrong one.
    ['nope', ['port', 'host'], undefined],
    ['sed', ['seed', 'reset'], 'seed'],
    ['abcdefgh', ['abcdefgh-long-name'], undefined],
  ])('%s among %j: %s', (word, known, expected) => {
    expect(nearest(word, known)).toBe(expected);
  });

  it('is worded for the message, or empty', () => {
    expect(didYouMean('prot', ['port'], (w) => `--${w}`)).toBe(' (did you mean --port?)');
    expect(didYouMean('zzz', ['port'])).toBe('');
  });
});
