import { describe, expect, it } from 'vitest';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { WorkspaceUsers, tooManyWorkspaces } from '../../../src/store/workspace-users.js';

describe('the workspaces in use and their cap (--max-workspaces)', () => {
  it('beyond the cap, a workspace nobody uses is refused with the one message every store answers', () => {
    const users = new WorkspaceUsers(2);
    users.enter('a');
    users.enter('b');
    let refused: unknown;
    try {
      users.enter('c');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(StoreFailure);
    expect(refused).toMatchObject({
      code: 'service_unavailable',
      message: 'Too many workspaces are in use at once (2, --max-workspaces). Try again shortly.',
    });
    expect(tooManyWorkspaces(7).message).toBe('Too many workspaces are in use at once (7, --max-workspaces). Try again shortly.');
    expect(users.ids()).toEqual(['a', 'b']);
  });

  it('a workspace in use always takes one more request, and frees its place only when its last request leaves', () => {
    const users = new WorkspaceUsers(1);
    users.enter('a');
    users.enter('a');
    expect(users.size).toBe(1);
    users.leave('a');
    expect(users.holds('a')).toBe(true);
    expect(() => users.enter('b')).toThrow(StoreFailure);
    users.leave('a');
    expect(users.holds('a')).toBe(false);
    expect(users.size).toBe(0);
    expect(() => users.enter('b')).not.toThrow();
  });
});
