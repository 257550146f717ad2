import { describe, expect, it } from 'vitest';
import { npmSwallowed } from '../../../src/cli/npm-args.js';
import { wantsColour } from '../../../contracts/plain-output.js';

const VALUED = ['port', 'count', 'api-keys'];

describe('npmSwallowed: the options npm kept for itself, and the command line that works', () => {
  it.each([
    ['npm start --port 4011', { npm_lifecycle_event: 'start', npm_config_port: 'true' }, ['4011'], 'npm start -- --port 4011'],
    [
      'two options, in the order npm set them',
      { npm_lifecycle_event: 'start', npm_config_api_keys: 'true', npm_config_port: 'true' },
      ['a,b', '4011'],
      'npm start -- --api-keys a,b --port 4011',
    ],
    ['another script, a command before the values', { npm_lifecycle_event: 'cli', npm_config_count: 'true' }, ['seed', '7'], 'npm run cli -- seed --count 7'],
  ])('%s', (_label, env, positionals, expected) => {
    expect(npmSwallowed(env, VALUED, positionals)).toBe(expected);
  });

  it.each([
    ['not under npm', { npm_config_port: 'true' }, ['4011']],
    ['under npm, no option of ours kept', { npm_lifecycle_event: 'start', npm_config_cache: 'true' }, ['4011']],
    ['an npm setting with a value, not a kept flag', { npm_lifecycle_event: 'start', npm_config_port: '4011' }, ['seed']],
    ['nothing passed on', { npm_lifecycle_event: 'start', npm_config_port: 'true' }, []],
  ])('nothing to say: %s', (_label, env, positionals) => {
    expect(npmSwallowed(env, VALUED, positionals)).toBeUndefined();
  });
});

describe("wantsColour: verify's colours", () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [undefined, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [false, { FORCE_COLOR: '1' }, true],
    [true, { FORCE_COLOR: '0' }, false],
  ])('terminal %s, env %j -> %s', (isTTY, env, expected) => {
    expect(wantsColour(isTTY, env)).toBe(expected);
  });
});
