/**
 * Which user ids a name has, and whether that user can reach a path: the
 * questions behind "PostgreSQL, run as another user, cannot find its files".
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/** A user's ids. */
export interface UserIds {
  uid: number;
  gid: number;
}

function idOf(name: string, flag: '-u' | '-g'): number {
  const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.trim()) : NaN;
}

/** The ids of the user `name`, or `undefined` where there is no such user. */
export function userIds(name: string): UserIds | undefined {
  const ids = { uid: idOf(name, '-u'), gid: idOf(name, '-g') };
  return Number.isNaN(ids.uid) || Number.isNaN(ids.gid) ? undefined : ids;
}

/** Whether `user` may enter a folder of this owner and mode (a child process started with a uid keeps no other groups). */
function mayEnter(user: UserIds, owner: UserIds, mode: number): boolean {
  if (user.uid === 0) return true;
  if (user.uid === owner.uid) return (mode & 0o100) !== 0;
  if (user.gid === owner.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/**
 * The first folder on the way to `path` (the path itself included, when it is
 * a folder) that `user` may not enter, described as `/root (mode 0700, owner
 * uid 0)`; `undefined` when every one is open to it or the path does not exist.
 */
export function closedFolderOnTheWay(path: string, user: UserIds): string | undefined {
  const parts = resolve(path).split(sep).filter(Boolean);
  const folders = [sep, ...parts.map((_, i) => sep + parts.slice(0, i + 1).join(sep))];
  for (const dir of folders) {
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      return undefined;
    }
    if (!stat.isDirectory()) return undefined;
    if (!mayEnter(user, stat, stat.mode)) return `${dir} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}, owner uid ${stat.uid})`;
  }
  return undefined;
}
