/**
 * The store's child spans (store/traced-workspaces.ts): each read and write
 * of a workspace handed out by `use`, `peek` or `reader` is one span of the request
 * under way, ended when its work settles, failed when it fails; the
 * workspace is named by its id, never its key.
 */
import { describe, expect, it } from 'vitest';
import type { SpanEnd, Tracing } from '../../../src/kernel/tracing.js';
import type { WorkspaceData, WorkspaceStore } from '../../../src/store/backend.js';
import { tracedWorkspaces } from '../../../src/store/traced-workspaces.js';

interface Recorded {
  name: string;
  attributes: Record<string, string>;
  ended?: { failed: boolean; error: unknown };
}

/** A tracing that records the child spans begun and how each ended. */
function recorder(): { tracing: Pick<Tracing, 'child'>; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const child = (name: string, attributes: Record<string, string>): SpanEnd => {
    const span: Recorded = { name, attributes };
    spans.push(span);
    return (failed = false, error) => void (span.ended = { failed, error });
  };
  return { tracing: { child }, spans };
}

const failure = Object.assign(new Error('quota'), { code: 'quota_exceeded' });
const pet = { id: 1, name: 'Rex', categoryId: 1 };
let created: (value: unknown) => void = () => undefined;
const data = {
  page: () => ({ pets: [pet], json: '[]' }),
  get: () => pet,
  getText: () => ({ pet, json: '{}' }),
  createText: () => new Promise((resolve) => (created = resolve)),
  replace: () => Promise.reject(failure),
  append: () => Promise.resolve(),
  summary: () => ({ count: 1, nextId: 2 }),
  exportPieces: () => ['{}'],
} as unknown as WorkspaceData;
const store = {
  idOf: (key: string) => `id-of-${key.length}`,
  peek: () => data,
  use: (_key: string, work: (ws: WorkspaceData) => unknown) => Promise.resolve(work(data)),
} as unknown as WorkspaceStore;

describe('traced workspaces', () => {
  it('make each read a child span, ended at once, with the backend and the workspace id', () => {
    const { tracing, spans } = recorder();
    const traced = tracedWorkspaces(store, tracing, 'file');
    const ws = traced.peek('secret-key');
    expect(ws?.getText(1)).toEqual({ pet, json: '{}' });
    expect(traced.peek('secret-key')).toBe(ws);
    expect(spans).toEqual([
      { name: 'store.getText', attributes: { 'petstore.store': 'file', 'petstore.workspace': 'id-of-10' }, ended: { failed: false, error: undefined } },
    ]);
    expect(JSON.stringify(spans)).not.toContain('secret-key');
  });

  it('end a write when it settles, a failed one failed with its error', async () => {
    const { tracing, spans } = recorder();
    const traced = tracedWorkspaces(store, tracing, 'postgresql');
    const creating = traced.use('k', (ws) => ws.createText({ name: 'Rex', categoryId: 1 } as never));
    await Promise.resolve();
    expect(spans[0]).toMatchObject({ name: 'store.createText' });
    expect(spans[0]?.ended).toBeUndefined();
    created({ pet, json: '{}', byteLength: 2 });
    await creating;
    expect(spans[0]?.ended).toEqual({ failed: false, error: undefined });
    await expect(traced.use('k', (ws) => ws.replace([]))).rejects.toBe(failure);
    expect(spans[1]).toEqual({
      name: 'store.replace',
      attributes: { 'petstore.store': 'postgresql', 'petstore.workspace': 'id-of-1' },
      ended: { failed: true, error: failure },
    });
  });

  it("make each of a reader's reads a child span, and offer a reader only where the store does", async () => {
    const { tracing, spans } = recorder();
    let read: (value: unknown) => void = () => undefined;
    const withReader = {
      ...store,
      reader: () => ({ page: () => ({ pets: [pet], json: '[]' }), getText: () => new Promise((resolve) => (read = resolve)) }),
    } as unknown as WorkspaceStore;
    const traced = tracedWorkspaces(withReader, tracing, 'postgresql');
    const reads = traced.reader?.('secret-key');
    expect(reads?.page(20)).toEqual({ pets: [pet], json: '[]' });
    const text = reads?.getText(1);
    expect(spans.map((s) => [s.name, s.attributes['petstore.workspace'], s.ended !== undefined])).toEqual([
      ['store.page', 'id-of-10', true],
      ['store.getText', 'id-of-10', false],
    ]);
    read({ pet, json: '{}' });
    await text;
    expect(spans[1]?.ended).toEqual({ failed: false, error: undefined });
    expect(tracedWorkspaces(store, tracing, 'file').reader).toBeUndefined();
  });

  it('begin no span outside a request', () => {
    const traced = tracedWorkspaces(store, { child: () => undefined }, 'memory');
    expect(traced.peek('k')?.summary()).toEqual({ count: 1, nextId: 2 });
  });
});
