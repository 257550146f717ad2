import { stringifyJson } from '../../kernel/exact-json.js';
import { encodeRecord } from './commit-log.js';
import { buildPet, idAt, takeIds, type PendingCreate } from '../rules.js';

/**
 * A batch of creates as commit-log records: the ids the batch takes from
 * `firstId` (`takeIds`), in order. A pet whose provisional id is not the one
 * it gets (an earlier batch failed, and its ids were never given) is rebuilt
 * with the right one. Returns the records and the next id after them.
 */
export function encodeBatch(items: PendingCreate[], epoch: number, firstId: number): { text: string; nextId: number } {
  const ids = takeIds(firstId, items.length);
  let text = '';
  for (const [i, item] of items.entries()) {
    const id = idAt(ids.first, i);
    if (item.pet.id !== id) {
      item.pet = buildPet(id, item.input);
      item.json = stringifyJson(item.pet);
    }
    text += encodeRecord(`{"e":${epoch},"pet":${item.json}}`);
  }
  return { text, nextId: ids.after };
}
