/** A client's value quoted in an error message: whole when short, else cut to ECHO_LIMIT characters with its length. */
import { describe, expect, it } from 'vitest';
import { ECHO_LIMIT, echo } from '../../../src/kernel/echo.js';
import { formatIssues } from '../../../src/kernel/issues.js';

describe('echo', () => {
  it('quotes a value of at most ECHO_LIMIT characters whole', () => {
    expect(ECHO_LIMIT).toBe(100);
    expect(echo('a unicorn exists')).toBe("'a unicorn exists'");
    expect(echo('x'.repeat(ECHO_LIMIT))).toBe(`'${'x'.repeat(ECHO_LIMIT)}'`);
    expect(echo('/v1/pets', '')).toBe('/v1/pets');
  });

  it('cuts a longer one to its first ECHO_LIMIT characters, an ellipsis and its length', () => {
    const long = `${'a'.repeat(ECHO_LIMIT)}${'b'.repeat(5_000_000)}`;
    const quoted = echo(long);
    expect(quoted).toBe(`'${'a'.repeat(ECHO_LIMIT)}…' (${long.length} characters)`);
    expect(echo(long, '"')).toBe(`"${'a'.repeat(ECHO_LIMIT)}…" (${long.length} characters)`);
  });

  it('never splits a character written as two UTF-16 units', () => {
    const long = `${'a'.repeat(ECHO_LIMIT - 1)}🐶${'b'.repeat(10)}`;
    const quoted = echo(long);
    expect(quoted).toBe(`'${'a'.repeat(ECHO_LIMIT - 1)}…' (${long.length} characters)`);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(quoted)).toBe(false);
  });
});

describe('formatIssues', () => {
  it('quotes a field the client named through echo: a property of megabytes is not sent back', () => {
    const name = 'k'.repeat(1_000_000);
    const text = formatIssues([{ in: 'body', name, message: 'is not allowed' }]);
    expect(text).toBe(`Request body field '${'k'.repeat(ECHO_LIMIT)}…' (1000000 characters) is not allowed.`);
    expect(formatIssues([{ in: '3', name: 'tags/0', message: 'must be string' }])).toBe("Record 3 field 'tags.0' must be string.");
  });
});
