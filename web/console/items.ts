import type { ControlResult } from '../../src/control/routes.js';
import type { Console } from './session.js';
import type { LiveView } from './live.js';
import { byId, el, fill, say } from './dom.js';

type Api = ControlResult<'listApis'>['apis'][number];
type KeyPlace = NonNullable<Api['operations'][number]['key']>;

/** A collection the console can list: where, through which operation, and how that operation takes the key. */
interface Listed {
  label: string;
  path: string;
  key: KeyPlace | undefined;
}

/** Columns shown at most: an item's first properties; the rest stay in the API. */
const COLUMNS = 8;
/** Methods that change no item. */
const READS = ['GET', 'HEAD', 'OPTIONS'];

/** The key this sandbox lets this browser use (its first, on this machine only), when no workspace key was typed. */
const firstKey = (): Promise<string | undefined> =>
  fetch('/docs/api-key.json', { cache: 'no-store' })
    .then(async (res) => (res.ok ? ((await res.json()) as { apiKey?: unknown }).apiKey : undefined))
    .then((key) => (typeof key === 'string' && key !== '' ? key : undefined))
    .catch(() => undefined);

/** The collections of the APIs served by convention that have a list operation. */
function collectionsOf(apis: readonly Api[]): Listed[] {
  return apis.flatMap((api) =>
    api.collections.flatMap((c) => {
      const list = api.operations.find((op) => op.operationId === c.listOperationId);
      return list ? [{ label: `${api.title} ${api.version}: ${c.path}`, path: c.path, key: list.key }] : [];
    }),
  );
}

/** The request that lists a collection with `key`, presented where its list operation takes it. */
function listRequest(listed: Listed, key: string): { url: string; headers: Record<string, string> } {
  const place = listed.key;
  if (place === undefined) return { url: listed.path, headers: {} };
  if (place.in === 'query') return { url: `${listed.path}?${new URLSearchParams({ [place.name]: key }).toString()}`, headers: {} };
  if (place.in === 'cookie') throw new Error(`${listed.path} takes its key in a cookie (${place.name}), which the console cannot send.`);
  return { url: listed.path, headers: { [place.name]: place.scheme ? `${place.scheme} ${key}` : key } };
}

const cellText = (value: unknown): string =>
  value === undefined ? ''
  : typeof value === 'string' ? value
  : JSON.stringify(value);

/**
 * The items of each collection of the APIs served from a spec (`--spec`),
 * read through the API itself with the workspace's key, as any client
 * reads them (so each read is in the journal and the coverage too). Shown
 * only when the sandbox serves such a collection.
 */
export function createItemsView(app: Console): LiveView {
  const box = byId('items');
  const status = byId('items-status');
  const select = byId<HTMLSelectElement>('items-collection');
  const table = byId<HTMLTableElement>('items-table');
  let collections: Listed[] | undefined;

  const show = async (listed: Listed) => {
    const key = app.key() ?? (await firstKey());
    if (key === undefined) throw new Error("Type the workspace's API key above: the items are read through the API with it.");
    const { url, headers } = listRequest(listed, key);
    const res = await fetch(url, { headers, cache: 'no-store' });
    const body = (await res.json().catch(() => undefined)) as unknown;
    if (!res.ok || !Array.isArray(body))
      throw new Error(`GET ${url} answered ${res.status}${body === undefined ? '' : `: ${JSON.stringify(body).slice(0, 200)}`}`);
    const items = body as Record<string, unknown>[];
    const columns = [...new Set(items.flatMap((item) => Object.keys(item ?? {})))].slice(0, COLUMNS);
    fill(table.tHead?.rows[0] as HTMLTableRowElement, ...columns.map((c) => el('th', { scope: 'col' }, c)));
    fill(table.tBodies[0] as HTMLTableSectionElement, ...items.map((item) => el('tr', {}, ...columns.map((c) => el('td', {}, cellText(item?.[c]))))));
    byId('items-caption').textContent = `${listed.label}: ${items.length} item${items.length === 1 ? '' : 's'}, as GET ${listed.path} lists them`;
    say(status, '');
  };

  const load = async () => {
    try {
      if (collections === undefined) {
        collections = collectionsOf((await app.client().call('listApis')).apis);
        fill(select, ...collections.map((c, i) => el('option', { value: String(i) }, c.label)));
      }
      box.hidden = collections.length === 0;
      const chosen = collections[Number(select.value)] ?? collections[0];
      if (chosen) await show(chosen);
    } catch (error) {
      app.fail(status, error);
    }
  };
  byId<HTMLFormElement>('items-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  select.addEventListener('change', () => void load());
  // A request that may have stored something: the items change.
  return { load, changedBy: (e) => !READS.includes(e.method) && e.status < 400 };
}
