import type pg from 'pg';
import { transaction } from './pool.js';

/**
 * The schema, as numbered steps. A step is never changed once released; a
 * change of schema is a new step. `petstore_migrations` records those
 * applied.
 *
 * Pets keep their JSON text exactly as the store wrote it (`text`, not
 * `jsonb`, which would reorder keys and round numbers), beside the columns
 * lists filter and order on.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE petstore_state (
     id int PRIMARY KEY CHECK (id = 1),
     mode text NOT NULL,
     secret text NOT NULL,
     faults_version bigint NOT NULL DEFAULT 0,
     journal_evicted bigint NOT NULL DEFAULT 0
   );
   CREATE TABLE petstore_workspaces (
     id text PRIMARY KEY,
     generation int NOT NULL DEFAULT 1,
     next_id bigint NOT NULL,
     pet_count bigint NOT NULL,
     bytes bigint NOT NULL
   );
   CREATE TABLE petstore_pets (
     workspace text NOT NULL REFERENCES petstore_workspaces (id),
     id bigint NOT NULL,
     status text,
     json text NOT NULL,
     PRIMARY KEY (workspace, id)
   );
   CREATE INDEX petstore_pets_by_status ON petstore_pets (workspace, status, id);
   CREATE TABLE petstore_journal (
     seq bigserial PRIMARY KEY,
     workspace text NOT NULL,
     record text NOT NULL,
     bytes int NOT NULL
   );
   CREATE INDEX petstore_journal_by_workspace ON petstore_journal (workspace, seq);
   CREATE TABLE petstore_faults (
     id bigserial PRIMARY KEY,
     workspace text NOT NULL,
     input text NOT NULL,
     remaining int,
     applied int NOT NULL DEFAULT 0
   );`,
  // 2: a version per workspace, bumped by every change of its pets, so that
  // an instance can check in one cheap read whether what it read before still
  // holds; the journal's total bytes, kept as the journal changes so that its
  // budget is checked without summing it (in a row of its own: the state row
  // is read before every request, and should not turn over with each write);
  // the journal made UNLOGGED: a record of requests, written with each of
  // them, need not cost a write-ahead log entry and a flush each (PostgreSQL
  // keeps it over a clean restart, empties it after a crash of its own, and
  // does not copy it to replicas), each row tagged with the instance that
  // wrote it (live tails read the others' from the database);
  // the pets' foreign key dropped: it cost a lookup of the workspace for
  // every pet stored, and pets are only ever written by a statement that
  // holds their workspace's row, which is never deleted;
  // and the named checkpoints, each an export text kept byte for byte.
  `ALTER TABLE petstore_workspaces ADD COLUMN version bigint NOT NULL DEFAULT 0;
   ALTER TABLE petstore_pets DROP CONSTRAINT petstore_pets_workspace_fkey;
   CREATE TABLE petstore_journal_total (
     id int PRIMARY KEY CHECK (id = 1),
     bytes bigint NOT NULL
   );
   INSERT INTO petstore_journal_total SELECT 1, coalesce(sum(bytes), 0) FROM petstore_journal;
   ALTER TABLE petstore_journal SET UNLOGGED;
   ALTER TABLE petstore_journal ADD COLUMN instance text;
   ALTER TABLE petstore_journal ALTER COLUMN record SET STORAGE EXTERNAL;
   CREATE TABLE petstore_checkpoints (
     workspace text NOT NULL REFERENCES petstore_workspaces (id),
     name text NOT NULL,
     saved_at timestamptz NOT NULL,
     pet_count bigint NOT NULL,
     next_id bigint NOT NULL,
     bytes bigint NOT NULL,
     text text NOT NULL,
     PRIMARY KEY (workspace, name)
   );`,
  // 3: open keys' workspaces bounded (docs/open-keys.md): whether a workspace
  // was made for a key its instance did not have configured (only those are
  // ever removed; rows made before are kept), and when it was last used, to
  // within a second (written with the state read before a request, at most
  // once a second per workspace), so the least recently used go first. A row
  // is deleted only with everything keyed by it, in one transaction that
  // holds its lock (PgOpenKeyRemoval): the pets still need no foreign key.
  `ALTER TABLE petstore_workspaces ADD COLUMN open_key boolean NOT NULL DEFAULT false,
     ADD COLUMN last_used timestamptz NOT NULL DEFAULT now();
   CREATE INDEX petstore_workspaces_open_keys ON petstore_workspaces (last_used) WHERE open_key;`,
  // 4: the coverage report's counts (docs/coverage.md): requests per workspace,
  // operation ('' when none matched) and status, added to by the journal's
  // batch that writes their entries, whatever the journal cuts later, and
  // deleted with the journal. Unlogged, as the journal is.
  `CREATE UNLOGGED TABLE petstore_coverage (
     workspace text NOT NULL,
     operation text NOT NULL,
     status int NOT NULL,
     requests bigint NOT NULL,
     PRIMARY KEY (workspace, operation, status)
   );`,
  // 5: the items of APIs served from a spec by convention (`--spec`,
  // PgItemStore), per workspace and API (its base path). A space's row marks
  // it seeded; a collection's row holds its seeded items (a JSON array)
  // until its first use, when they become rows of their own, and then the
  // next integer id and creation sequence, taken under the row's lock by the
  // transaction that inserts. An item keeps its JSON text exactly (text, not
  // jsonb, which would reorder its properties); `num` is an integer id, what
  // lists order by, and `seq` orders other ids as they were created.
  `CREATE TABLE petstore_item_spaces (
     workspace text NOT NULL,
     api text NOT NULL,
     PRIMARY KEY (workspace, api)
   );
   CREATE TABLE petstore_item_collections (
     workspace text NOT NULL,
     api text NOT NULL,
     collection text NOT NULL,
     seeded text,
     next_id bigint,
     next_seq bigint NOT NULL DEFAULT 1,
     PRIMARY KEY (workspace, api, collection)
   );
   CREATE TABLE petstore_items (
     workspace text NOT NULL,
     api text NOT NULL,
     collection text NOT NULL,
     id text NOT NULL,
     num bigint,
     seq bigint NOT NULL,
     json text NOT NULL,
     PRIMARY KEY (workspace, api, collection, id)
   );
   CREATE INDEX petstore_items_in_order ON petstore_items (workspace, api, collection, num, seq);`,
  // 6: reads kept by instances that listen, told of every change (cache-coherence.ts):
  // a workspace's new version or its removal, and the shared mode or faults'
  // version, notified on COMMIT by triggers, whoever writes; the instances that
  // serve reads from what they kept without asking the database first (members,
  // each listening session under a lease, unlogged: they register again after
  // a restart), and the pings a write sends after its COMMIT, numbered in
  // COMMIT order, whose last heard each member records.
  `CREATE UNLOGGED TABLE petstore_cache_members (
     id text PRIMARY KEY,
     expires timestamptz NOT NULL,
     heard bigint NOT NULL DEFAULT 0
   );
   CREATE SEQUENCE petstore_cache_pings;
   CREATE FUNCTION petstore_cache_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' THEN
       PERFORM pg_notify('petstore_cache', 'g ' || OLD.id);
     ELSIF NEW.version IS DISTINCT FROM OLD.version THEN
       PERFORM pg_notify('petstore_cache', 'w ' || NEW.id || ' ' || NEW.version);
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER petstore_cache_version AFTER UPDATE OF version ON petstore_workspaces
     FOR EACH ROW EXECUTE FUNCTION petstore_cache_workspace();
   CREATE TRIGGER petstore_cache_removal AFTER DELETE ON petstore_workspaces
     FOR EACH ROW EXECUTE FUNCTION petstore_cache_workspace();
   CREATE FUNCTION petstore_cache_state() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.mode IS DISTINCT FROM OLD.mode OR NEW.faults_version IS DISTINCT FROM OLD.faults_version THEN
       PERFORM pg_notify('petstore_cache', 's ' || NEW.mode || ' ' || NEW.faults_version);
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER petstore_cache_state AFTER UPDATE OF mode, faults_version ON petstore_state
     FOR EACH ROW EXECUTE FUNCTION petstore_cache_state();`,
];

/** Any number of instances may start at once: the first takes this lock and migrates, the others wait and find nothing to do. */
const MIGRATION_LOCK = 0x5e7_5a4d; // "petstore sandbox", as a 32-bit advisory lock key

/**
 * The next step due, applied in its own transaction under the migration lock
 * (an advisory lock of that transaction, so that nothing outlives it: a
 * pooler in transaction mode may run each transaction on another server
 * connection). Returns whether a step was applied; false when none is due.
 */
async function applyNext(pool: pg.Pool): Promise<boolean> {
  return transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS petstore_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM petstore_migrations');
    const done = rows[0]?.v ?? 0;
    if (done > MIGRATIONS.length)
      throw new Error(`the database's schema (version ${done}) is newer than this sandbox knows (${MIGRATIONS.length}); upgrade the sandbox`);
    if (done === MIGRATIONS.length) return false;
    await client.query(MIGRATIONS[done] as string);
    await client.query('INSERT INTO petstore_migrations (version) VALUES ($1)', [done + 1]);
    return true;
  });
}

/** Brings the schema up to date, each step in its own transaction under the migration lock. Returns the steps applied. */
export async function migrate(pool: pg.Pool): Promise<number> {
  let applied = 0;
  while (await applyNext(pool)) applied += 1;
  return applied;
}
