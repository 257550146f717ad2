/**
 * `--database-pooler transaction` without a database: the pool's Client
 * sends every query unnamed (a pooler in transaction mode loses a prepared
 * statement at the transaction's end), session mode keeps the driver's own
 * Client; the live journal listens where it can and polls where it cannot;
 * the start-up lines say which.
 */
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPg } from '../../../../src/store/postgres/pg-driver.js';
import { createPool } from '../../../../src/store/postgres/pool.js';
import { poolerNotes, TAIL_POLL_MS, tailSource, unnamedClient } from '../../../../src/store/postgres/pooler.js';

const URL = 'postgres://u:p@127.0.0.1:9/pets';

/** What the driver's Client was handed, query by query (nothing is sent: no connection is made). */
function sentThrough(client: pg.Client, configs: unknown[]): unknown[] {
  const seen: unknown[] = [];
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(((config: unknown) => (seen.push(config), Promise.resolve())) as never);
  for (const config of configs) void (client.query as (c: unknown, v?: unknown) => unknown)(config, []);
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe('the pool in transaction mode', () => {
  it('sends every query config without its name, and nothing else changed', () => {
    const client = new (unnamedClient(pg))();
    const named = { name: 'petstore-page', text: 'SELECT $1::int', values: [1], rowMode: 'array' };
    const submittable = { name: 'kept', text: 'SELECT 1', submit: () => undefined };
    const [first, second, third] = sentThrough(client, [named, 'SELECT 1', submittable]);
    expect(first).toEqual({ text: 'SELECT $1::int', values: [1], rowMode: 'array', name: undefined });
    expect(named.name).toBe('petstore-page');
    expect(second).toBe('SELECT 1');
    // A cursor or a Query object prepares itself: passed as it is.
    expect(third).toBe(submittable);
  });

  it("is made of that Client; in session mode of the driver's own", async () => {
    await loadPg();
    const transaction = createPool({ url: URL, size: 1, pooler: 'transaction', onIdleError: () => undefined });
    const session = createPool({ url: URL, size: 1, pooler: 'session', onIdleError: () => undefined });
    try {
      const { Client } = (transaction as unknown as { options: { Client: typeof pg.Client } }).options;
      expect(Client.prototype).toBeInstanceOf(pg.Client);
      const seen = sentThrough(new Client(), [{ name: 'petstore-sync-read', text: 'SELECT 1' }]);
      expect(seen).toEqual([{ name: undefined, text: 'SELECT 1' }]);
      expect((session as unknown as { options: { Client?: unknown } }).options.Client).toBeUndefined();
    } finally {
      await Promise.all([transaction.end(), session.end()]);
    }
  });
});

describe("the live journal's source", () => {
  it('listens on the store in session mode, on --database-listen-url when given, and polls in transaction mode without one', () => {
    expect(tailSource({ databasePooler: 'session', databaseListenUrl: undefined }, URL)).toEqual({ listenUrl: URL });
    expect(tailSource({ databasePooler: 'session', databaseListenUrl: 'postgres://direct/pets' }, URL)).toEqual({ listenUrl: 'postgres://direct/pets' });
    expect(tailSource({ databasePooler: 'transaction', databaseListenUrl: 'postgres://direct/pets' }, URL)).toEqual({ listenUrl: 'postgres://direct/pets' });
    expect(tailSource({ databasePooler: 'transaction', databaseListenUrl: undefined }, URL)).toEqual({ pollMs: TAIL_POLL_MS });
    expect(TAIL_POLL_MS).toBe(250);
  });

  it('is told in the start-up lines in transaction mode only, polling with its delay, never the listen URL itself', () => {
    expect(poolerNotes({ databasePooler: 'session', databaseListenUrl: undefined })).toEqual([]);
    expect(poolerNotes({ databasePooler: 'transaction', databaseListenUrl: undefined })).toEqual([
      "pooler:    transaction mode, statements unnamed; the live journal reads other instances' requests every 250 ms (no --database-listen-url to LISTEN on)",
    ]);
    const listening = poolerNotes({ databasePooler: 'transaction', databaseListenUrl: 'postgres://u:secret@direct/pets' }).join('\n');
    expect(listening).toContain('the live journal listens on --database-listen-url');
    expect(listening).not.toContain('secret');
  });
});
