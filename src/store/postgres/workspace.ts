import { parseJson, stringifyJson } from '../../kernel/json.js';
import type pg from 'pg';
import type { CheckpointInput, Summary, WorkspaceData } from '../backend.js';
import type { StoreFailure } from '../../kernel/store-errors.js';
import type { Page, PetText } from '../pet-index.js';
import { buildPet, idBytes, nextIdAfterLoad, quotaProblem, quotaRefusal, takeIds, type Quota } from '../rules.js';
import { EMPTY, appendClash, loadTotals, type Totals } from '../load-rules.js';
import type { NewPet, Pet, PetStatus } from '../types.js';
import { failed, transaction } from './pool.js';
import { exportRows, insertPets, missing, readExport } from './workspace-rows.js';
import { CreateBatcher, type QueuedCreate } from './create-batch.js';
import { takeIdsSql } from './id-sql.js';
import type { ReadCache } from './read-cache.js';
import type { WriteTimes } from '../write-times.js';

/** A pet's JSON after its id: `{"id":` + id + this is its whole text, as `JSON.stringify(buildPet(id, input))` gives it. */
function textAfterId(input: NewPet): string {
  return stringifyJson(buildPet(0, input)).slice('{"id":0'.length);
}

/** One create: its id taken (id-sql.ts) and its pet stored, in one statement. */
const CREATE_ONE = (() => {
  const take = takeIdsSql({ count: '1', fixedBytes: '$3', quotaPets: '$4', quotaBytes: '$5' });
  return `WITH ${take.with}
    INSERT INTO petstore_pets (workspace, id, status, json) SELECT $1, ${take.idAt('0')}, $2, '{"id":' || ${take.idAt('0')} || $6 FROM w RETURNING id`;
})();

/** What a page and a pet are kept under (ReadCache), within their workspace. */
const pageKey = (limit: number, status: PetStatus | undefined) => `page ${limit} ${status ?? ''}`;
const petKey = (id: number) => `pet ${id}`;

/**
 * One API key's pets in PostgreSQL. Reads are kept (ReadCache) labelled
 * with the workspace's version, and served only while it stands, so a change
 * made through any instance is seen by the next request to any other. A
 * write resolves once committed, and heard by every instance that keeps
 * reads without asking (`published`).
 */
export class PgWorkspace implements WorkspaceData {
  constructor(
    private readonly pool: pg.Pool,
    readonly id: string,
    private readonly quota: Quota,
    private readonly cache: ReadCache,
    private readonly writes: WriteTimes,
    /** Resolves once every instance that keeps reads heard the changes committed so far: a write is answered after it. */
    private readonly published: () => Promise<void> = async () => undefined,
  ) {
    this.batcher = new CreateBatcher(pool, id, quota, (item) => this.createOne(item));
  }

  /** The page `page` would answer, when this process keeps it at the workspace's newest version. */
  keptPage(limit: number, status?: PetStatus): Page | undefined {
    return this.cache.get<Page>(this.id, pageKey(limit, status));
  }

  /** What `getText` would answer, when this process keeps it at the workspace's newest version. */
  keptText(id: number): { text: PetText | undefined } | undefined {
    return this.cache.get<{ text: PetText | undefined }>(this.id, petKey(id));
  }

  page(limit: number, status?: PetStatus): Page | Promise<Page> {
    const cached = this.keptPage(limit, status);
    if (cached) return cached;
    const key = pageKey(limit, status);
    const sql =
      status ?
        'SELECT id, json FROM petstore_pets WHERE workspace = $1 AND status = $3 ORDER BY id LIMIT $2'
      : 'SELECT id, json FROM petstore_pets WHERE workspace = $1 ORDER BY id LIMIT $2';
    return this.read(key, { name: status ? 'petstore-page-status' : 'petstore-page', sql }, status ? [this.id, limit, status] : [this.id, limit], (texts) => {
      const json = `[${texts.join(',')}]`;
      return { pets: parseJson(json) as Pet[], json, byteLength: Buffer.byteLength(json) };
    });
  }

  get(id: number): Pet | undefined | Promise<Pet | undefined> {
    const text = this.getText(id);
    return text instanceof Promise ? text.then((t) => t?.pet) : text?.pet;
  }

  /** `get` with the pet's text as the database keeps it (the text a page joins), cached as pages are. */
  getText(id: number): PetText | undefined | Promise<PetText | undefined> {
    const cached = this.keptText(id);
    if (cached) return cached.text;
    const key = petKey(id);
    const sql = 'SELECT id, json FROM petstore_pets WHERE workspace = $1 AND id = $2';
    return this.read(key, { name: 'petstore-pet', sql }, [this.id, id], ([json]) => ({
      text: json === undefined ? undefined : { pet: parseJson(json) as Pet, json, byteLength: Buffer.byteLength(json) },
    })).then((found) => found.text);
  }

  /**
   * The pets' texts that `sql` selects (`id, json`; prepared once per connection as `name`), built into an answer and cached
   * under `key`, labelled with the workspace's version read in the same
   * statement (one snapshot), so the label is exact.
   */
  private async read<T>(key: string, { name, sql }: { name: string; sql: string }, values: unknown[], build: (texts: string[]) => T): Promise<T> {
    const epoch = this.cache.epoch;
    const { rows } = await this.pool
      .query<[string, string | null]>({
        name,
        text: `SELECT w.version, p.json FROM petstore_workspaces w LEFT JOIN LATERAL (${sql}) p ON true WHERE w.id = $1 ORDER BY p.id`,
        values,
        rowMode: 'array',
      })
      .catch(failed('Could not read the pets'));
    // Removed (an open key's, unused) since this request's state read: not an empty workspace; the next request makes it afresh.
    if (!rows[0]) throw missing();
    const texts = rows.flatMap((r) => (r[1] === null ? [] : [r[1]]));
    const answer = build(texts);
    // Roughly what the texts and their parsed objects hold.
    const bytes = 256 + texts.reduce((n, t) => n + 3 * t.length, 0);
    this.cache.set(this.id, key, Number(rows[0][0]), answer, bytes, epoch);
    return answer;
  }

  /** Creates of this workspace through this instance, grouped into one statement each while one runs. */
  private readonly batcher: CreateBatcher;

  /**
   * Adds a pet with the next id; resolves after the COMMIT of its statement (see CreateBatcher), with the pet's
   * JSON text built as the database builds the stored one: `{"id":` + id + the rest.
   */
  createText(input: NewPet): Promise<PetText> {
    return this.writes.time('create', () => {
      const rest = textAfterId(input);
      const fixedBytes = Buffer.byteLength(`{"id":${rest}`);
      return this.batcher.add(input, rest, fixedBytes).then(async (pet) => {
        await this.published();
        return { pet, json: `{"id":${pet.id}${rest}`, byteLength: fixedBytes + idBytes(pet.id) };
      });
    });
  }

  /**
   * One statement, so one transaction: the id taken from the workspace's
   * counter (its row lock orders concurrent creates, on any instance) and
   * the pet stored; resolved only after COMMIT. Quotas are checked in the
   * same statement; when it stores nothing, a second read says why.
   */
  private async createOne({ input, rest, fixedBytes }: QueuedCreate): Promise<Pet> {
    const { rows } = await this.pool
      .query<{ id: string }>({
        name: 'petstore-create',
        text: CREATE_ONE,
        values: [this.id, input.status ?? null, fixedBytes, this.quota.pets, this.quota.bytes, rest],
      })
      .catch(failed('Could not store the pet'));
    // Stored as its text was built: the same pet, made here rather than read back.
    if (rows[0]) return buildPet(Number(rows[0].id), input);
    throw await this.refusal(fixedBytes);
  }

  /** Why a create stored nothing: no id left (`takeIds` rejects with it), or a quota. */
  private async refusal(fixedBytes: number): Promise<StoreFailure> {
    const s = await this.state(this.pool);
    const id = takeIds(s.nextId, 1).first;
    const problem = quotaProblem(this.quota, s.count + 1, s.bytes + fixedBytes + idBytes(id));
    return quotaRefusal(problem ?? 'The workspace is at its quota.', 'stored');
  }

  /** A new generation: every pet replaced in one transaction, all or nothing. */
  replace(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('replace', () =>
      transaction(this.pool, async (client) => {
        await this.lock(client);
        await client.query('DELETE FROM petstore_pets WHERE workspace = $1', [this.id]);
        await this.store(client, pets, nextId, EMPTY);
      })
        .catch(failed('Could not replace the data'))
        .then(this.published),
    );
  }

  /** Pets added to those stored, in one transaction; none may have an id already stored. */
  append(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('append', () =>
      transaction(this.pool, async (client) => {
        const held = await this.lock(client, true);
        const { rows } = await client.query<{ id: string }>('SELECT id FROM petstore_pets WHERE workspace = $1 AND id = ANY($2::bigint[])', [
          this.id,
          pets.map((p) => p.id),
        ]);
        const stored = new Set(rows.map((r) => Number(r.id)));
        const clash = appendClash((id) => stored.has(id), pets);
        if (clash) throw clash;
        await this.store(client, pets, nextId, held);
      })
        .catch(failed('Could not load the pets'))
        .then(this.published),
    );
  }

  async summary(): Promise<Summary> {
    const s = await this.state(this.pool).catch(failed('Could not read the workspace'));
    return { count: s.count, nextId: s.nextId };
  }

  /** The workspace as a fixture set, read in one snapshot (REPEATABLE READ), in pieces. */
  exportPieces(): AsyncIterable<string> {
    return exportRows(this.pool, this.id);
  }

  /** The export, its count and its next id, all from the one snapshot of `readExport`. */
  async checkpointInput(): Promise<CheckpointInput> {
    const { count, nextId, pieces } = await readExport(this.pool, this.id);
    return { count, nextId, text: pieces };
  }

  /**
   * The workspace's row, locked until the transaction ends: loads and resets
   * of one workspace take turns. With `stored`, its next id is also past the
   * highest id its table holds (`nextIdAfterLoad`): an append keeps those
   * pets, and the next id never falls on one, whatever the counter said.
   */
  private async lock(client: pg.PoolClient, stored = false): Promise<Totals> {
    const held = await this.state(client, ' FOR UPDATE');
    if (!stored) return held;
    const { rows } = await client.query<{ highest: string }>('SELECT coalesce(max(id), 0) AS highest FROM petstore_pets WHERE workspace = $1', [this.id]);
    return { ...held, nextId: nextIdAfterLoad(held.nextId, undefined, Number(rows[0]?.highest ?? 0)) };
  }

  private async state(db: pg.Pool | pg.PoolClient, lock = ''): Promise<Totals> {
    const { rows } = await db.query<{ next_id: string; pet_count: string; bytes: string }>(
      `SELECT next_id, pet_count, bytes FROM petstore_workspaces WHERE id = $1${lock}`,
      [this.id],
    );
    const row = rows[0];
    if (!row) throw missing();
    return { nextId: Number(row.next_id), count: Number(row.pet_count), bytes: Number(row.bytes) };
  }

  /** Inserts `pets` beside `held` (`loadTotals`: the quota checked first, the next id decided) and sets the counts and the next id. */
  private async store(client: pg.PoolClient, pets: readonly Pet[], nextId: number | undefined, held: Totals): Promise<void> {
    const totals = loadTotals(held, pets, nextId, this.quota);
    await insertPets(client, this.id, pets);
    await client.query(
      'UPDATE petstore_workspaces SET generation = generation + 1, version = version + 1, pet_count = $2, bytes = $3, next_id = $4 WHERE id = $1',
      [this.id, totals.count, totals.bytes, totals.nextId],
    );
  }
}
