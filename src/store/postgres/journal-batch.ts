import type pg from 'pg';
import type { CoverageCount } from '../journal/coverage-types.js';
import type { JournalRecord } from '../journal/types.js';
import { failed } from './pool.js';

/**
 * What a journal batch writes besides its entries' text: which entries it
 * keeps, and the coverage counts it adds (docs/coverage.md); the counts read back.
 */

/** One row of `petstore_coverage`: an empty operation for a request no operation matched. */
interface CountRow {
  workspace: string;
  operation: string;
  status: number;
  requests: number;
}

/**
 * A journal batch's requests by workspace, operation and status, for the
 * batch's upsert into `petstore_coverage` (sent as one JSON parameter).
 * Sorted, so that two instances' upserts lock shared rows in one order.
 */
export function countsOf(batch: readonly { workspace: string; record: JournalRecord }[]): CountRow[] {
  const counts = new Map<string, CountRow>();
  for (const { workspace, record } of batch) {
    const operation = record.operationId ?? '';
    const key = JSON.stringify([workspace, operation, record.status]);
    const row = counts.get(key);
    if (row) row.requests += 1;
    else counts.set(key, { workspace, operation, status: record.status, requests: 1 });
  }
  return [...counts]
    .sort(([a], [b]) =>
      a < b ? -1
      : a > b ? 1
      : 0,
    )
    .map(([, row]) => row);
}

/**
 * The upsert of a batch's counts (`countsOf`, as the JSON parameter
 * `param`), a step of the journal's batch statement: every request of the
 * batch is counted, even those the journal's cut drops at once.
 */
export const ADD_COUNTS = (param: string): string =>
  `INSERT INTO petstore_coverage (workspace, operation, status, requests)
   SELECT * FROM json_to_recordset(${param}::json) AS c (workspace text, operation text, status int, requests bigint)
   ON CONFLICT (workspace, operation, status) DO UPDATE SET requests = petstore_coverage.requests + excluded.requests`;

/** A workspace's counts, or every workspace's summed (`undefined`). */
export async function readCounts(pool: pg.Pool, workspace: string | undefined): Promise<CoverageCount[]> {
  const where = workspace === undefined ? '' : 'WHERE workspace = $1';
  const { rows } = await pool
    .query<{ operation: string; status: number; requests: string }>(
      `SELECT operation, status, sum(requests) AS requests FROM petstore_coverage ${where} GROUP BY operation, status`,
      workspace === undefined ? [] : [workspace],
    )
    .catch(failed('Could not read the coverage counts'));
  return rows.map((r) => ({ operationId: r.operation === '' ? null : r.operation, status: r.status, count: Number(r.requests) }));
}

/**
 * The counts of the workspaces among `workspaces` whose journal the budget
 * emptied: they go with it, as on the other stores, so that ever-new keys
 * (--open-keys) leave no rows behind. A journal still holding an entry
 * keeps its counts.
 */
export async function dropCounts(pool: pg.Pool, workspaces: string[]): Promise<void> {
  if (workspaces.length === 0) return;
  await pool.query(
    `DELETE FROM petstore_coverage c WHERE c.workspace = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM petstore_journal j WHERE j.workspace = c.workspace)`,
    [workspaces],
  );
}

/** The newest `size` entries of each workspace in `batch`, in order: older ones would be cut at once. */
export function newestPerWorkspace<T extends { workspace: string }>(batch: T[], size: number): T[] {
  const seen = new Map<string, number>();
  const kept: T[] = [];
  for (let i = batch.length - 1; i >= 0; i--) {
    const entry = batch[i] as T;
    const n = seen.get(entry.workspace) ?? 0;
    if (n >= size) continue;
    seen.set(entry.workspace, n + 1);
    kept.push(entry);
  }
  return kept.reverse();
}
