import type pg from 'pg';
import type { FaultStore } from '../backend.js';
import { applyFirst, checkFault, type Fault, type FaultInput } from '../faults.js';
import type { OperationSpec } from '../../openapi/spec.js';
import type { Interceptor, OperationRequest } from '../../kernel/operation.js';
import { failed } from './pool.js';

interface FaultRow {
  id: string;
  workspace: string;
  input: string;
  applied: number;
}

const asFault = (row: FaultRow): Fault => ({ ...(JSON.parse(row.input) as FaultInput), id: Number(row.id), applied: row.applied });

/** The faults still in force: those with a count keep `remaining` above 0 until they are used up. */
const LIVE = '(remaining IS NULL OR remaining > 0)';

/**
 * Faults in PostgreSQL, shared by every instance. Each instance keeps a
 * copy for its interceptor, read again whenever the shared version
 * (`petstore_state.faults_version`, bumped by every change) moves; `sync`
 * checks it before each request, or the instance hears it move. A count-limited fault is taken by an
 * atomic decrement (`remaining - 1 WHERE remaining > 0`), so it fires
 * exactly `count` times across all instances.
 */
export class PgFaults implements FaultStore {
  private byWorkspace = new Map<string, Fault[]>();
  private version = -1;

  constructor(
    private readonly pool: pg.Pool,
    private readonly operations: ReadonlyMap<string, OperationSpec>,
    private readonly workspaceOf: (key: string) => string,
    /** Resolves once every instance that keeps reads heard the changes committed so far (cache-coherence.ts). */
    private readonly published: () => Promise<void> = async () => undefined,
  ) {}

  async list(workspace: string): Promise<Fault[]> {
    const { rows } = await this.pool
      .query<FaultRow>(`SELECT * FROM petstore_faults WHERE workspace = $1 AND ${LIVE} ORDER BY id`, [workspace])
      .catch(failed('Could not read the faults'));
    return rows.map(asFault);
  }

  async add(workspace: string, input: FaultInput): Promise<Fault> {
    checkFault(this.operations, input);
    const { rows } = await this.pool
      .query<FaultRow>(
        `WITH f AS (INSERT INTO petstore_faults (workspace, input, remaining) VALUES ($1, $2, $3) RETURNING *),
              v AS (UPDATE petstore_state SET faults_version = faults_version + 1)
         SELECT * FROM f`,
        [workspace, JSON.stringify(input), input.count ?? null],
      )
      .catch(failed('Could not store the fault'));
    await this.published();
    return asFault(rows[0] as FaultRow);
  }

  async clear(workspace: string, id?: number): Promise<number> {
    const { rows } = await this.pool
      .query<{ n: string }>(
        `WITH f AS (DELETE FROM petstore_faults WHERE workspace = $1 AND ($2::bigint IS NULL OR id = $2) RETURNING ${LIVE} AS live),
              v AS (UPDATE petstore_state SET faults_version = faults_version + 1)
         SELECT count(*) FILTER (WHERE live) AS n FROM f`,
        [workspace, id ?? null],
      )
      .catch(failed('Could not clear the faults'));
    await this.published();
    return Number(rows[0]?.n ?? 0);
  }

  /** Takes the shared version as read by `sync`; reads the faults again when it moved. */
  async refresh(version: number): Promise<void> {
    if (version === this.version) return;
    const { rows } = await this.pool.query<FaultRow>(`SELECT * FROM petstore_faults WHERE ${LIVE} ORDER BY id`).catch(failed('Could not read the faults'));
    const next = new Map<string, Fault[]>();
    for (const row of rows) next.set(row.workspace, [...(next.get(row.workspace) ?? []), asFault(row)]);
    this.byWorkspace = next;
    this.version = version;
  }

  readonly interceptor: Interceptor = (request) => {
    if (this.byWorkspace.size === 0) return undefined;
    const faults = this.byWorkspace.get(this.workspaceOf(request.key));
    if (!faults?.some((f) => f.operationId === request.op.operationId)) return undefined;
    return this.apply(faults, request);
  };

  /** The first fault of the operation that the database lets this request take. */
  private apply(faults: Fault[], request: OperationRequest): Promise<undefined> {
    return applyFirst(faults, request, (fault) => this.take(fault));
  }

  /** A fault counted as applied by the database, or undefined when its count was used up through another instance. */
  private async take(fault: Fault): Promise<Fault | undefined> {
    const { rows } = await this.pool
      .query<{ applied: number; remaining: number | null }>(
        `UPDATE petstore_faults SET applied = applied + 1, remaining = remaining - 1 WHERE id = $1 AND ${LIVE} RETURNING applied, remaining`,
        [fault.id],
      )
      .catch(failed('Could not apply a fault'));
    // Used up through another instance: this request is not one of its `count`.
    if (!rows[0]) return undefined;
    // Used up now: every instance drops it from its copy at its next request.
    if (rows[0].remaining === 0)
      await this.pool.query('UPDATE petstore_state SET faults_version = faults_version + 1').catch(failed('Could not apply a fault'));
    return { ...fault, applied: rows[0].applied };
  }
}
