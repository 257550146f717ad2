/** The provider states vocabulary and the state-change forms of each verifier, without HTTP. */
import { describe, expect, it } from 'vitest';
import { MAX_STATES, readStateChange } from '../../../src/control/provider-state-request.js';
import { KNOWN_STATES, planState, unknownStates } from '../../../src/control/provider-states.js';

describe('readStateChange', () => {
  it.each([
    ['Rust core', { state: 'no pets exist', params: { a: 1 }, action: 'teardown' }, { states: ['no pets exist'], params: { a: 1 }, action: 'teardown' }],
    ['pact-jvm', { state: 'no pets exist' }, { states: ['no pets exist'], params: {}, action: 'setup' }],
    ['Ruby', { consumer: 'web', state: 'no pets exist', states: ['no pets exist'], params: {} }, { states: ['no pets exist'], params: {}, action: 'setup' }],
    [
      'Ruby, states alone',
      { states: ['no pets exist', 'a pet with id 1 exists'] },
      { states: ['no pets exist', 'a pet with id 1 exists'], params: {}, action: 'setup' },
    ],
    ['Ruby, no state', { consumer: 'web', state: null, states: [null], params: {} }, { states: [], params: {}, action: 'setup' }],
    ['an empty name', { state: '', params: {}, action: 'setup' }, { states: [], params: {}, action: 'setup' }],
  ])('reads the body of %s', (_verifier, body, expected) => {
    expect(readStateChange(body, {})).toEqual(expected);
  });

  it('reads the query form: the state, the action, and JSON-looking text as JSON values', () => {
    const query = { state: 'a pet with id 7 exists', action: 'setup', id: '7', categoryId: '2.0', name: 'Rex', status: 'null', flag: 'true', code: '007x' };
    expect(readStateChange(undefined, query)).toEqual({
      states: ['a pet with id 7 exists'],
      params: { id: 7, categoryId: 2, name: 'Rex', status: null, flag: true, code: '007x' },
      action: 'setup',
    });
    expect(readStateChange(undefined, {})).toEqual({ states: [], params: {}, action: 'setup' });
  });

  it.each([
    [{ state: 'x', action: 'reset' }, '"action"'],
    [{ state: 3 }, '"state"'],
    [{ states: 'x' }, '"states"'],
    [{ states: [1] }, '"states.0"'],
    [{ state: 'x', params: 'id=1' }, '"params"'],
    ['state', 'JSON object'],
  ])('refuses %j with a 400', (body, says) => {
    expect(() => readStateChange(body, {})).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining(says) }));
  });

  it(`refuses more than ${MAX_STATES} states itself, whatever checked the request before`, () => {
    const names = (n: number) => Array.from({ length: n }, () => 'no pets exist');
    expect(readStateChange({ states: names(MAX_STATES) }, {}).states).toHaveLength(MAX_STATES);
    expect(() => readStateChange({ states: names(MAX_STATES + 1) }, {})).toThrow(
      expect.objectContaining({ code: 'invalid_request', status: 400, message: expect.stringContaining(`at most ${MAX_STATES}`) as unknown }),
    );
  });
});

describe('planState', () => {
  it('plans each known state; an id or status in the name is a parameter', () => {
    expect(planState('a pet with id 12 exists', { name: 'Kiwi' })).toEqual({
      pets: [{ id: 12, name: 'Kiwi', categoryId: 1, status: 'available' }],
      values: { id: 12, name: 'Kiwi', categoryId: 1, status: 'available' },
    });
    expect(planState('no pet with id 3 exists')?.pets?.map((p) => p.id)).not.toContain(3);
    expect(planState('no pets exist')).toEqual({ pets: [], values: {} });
    expect(planState('pets with status pending exist')?.values).toEqual({ status: 'pending' });
    expect(planState('the request has no valid API key')).toEqual({ refuseKey: true, values: {} });
  });

  it('knows nothing else, and says which names it does not know', () => {
    expect(planState('pets with status lost exist')).toBeUndefined();
    expect(unknownStates(['no pets exist', 'a unicorn exists'])).toEqual(['a unicorn exists']);
    expect(unknownStates(KNOWN_STATES)).toEqual([]);
  });
});
