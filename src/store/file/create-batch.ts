import { stringifyJson } from '../../core/exact-json.js';
import { encodeRecord } from './commit-log.js';
import { buildPet } from '../pet-index.js';
import type { PendingCreate } from '../rules.js';

export { MAX_ID, prepareCreate, type PendingCreate } from '../rules.js';

/**
 * A batch of creates as commit-log records: ids from `firstId` on, in order.
 * A pet whose provisional id is not the one it gets (an earlier batch failed,
 * and its ids were never given) is rebuilt with the right one. Returns the
 * records and the id after the last.
 */
export function encodeBatch(items: PendingCreate[], epoch: number, firstId: number): { text: string; nextId: number } {
  let id = firstId;
  let text = '';
  for (const item of items) {
    if (item.pet.id !== id) {
      item.pet = buildPet(id, item.input);
      item.json = stringifyJson(item.pet);
    }
    text += encodeRecord(`{"e":${epoch},"pet":${item.json}}`);
    id += 1;
  }
  return { text, nextId: id };
}
