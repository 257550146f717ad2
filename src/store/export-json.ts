import { stringifyJson } from '../kernel/json.js';
import type { Pet } from './types.js';

/** Export text is produced in pieces of about this size. */
const PIECE = 1024 * 1024;

/** An export's text before its pets' JSON: every store frames an export so. */
export const exportHead = (nextId: number | string): string => `{"nextId":${nextId},"pets":[`;
/** An export's text after its pets' JSON. */
export const EXPORT_TAIL = ']}';

/**
 * Pets as a fixture set, `{"nextId", "pets"}`, as JSON text in pieces (never
 * one string: a workspace at its quota may hold hundreds of MB). Exactly
 * `stringifyJson({ nextId, pets })`: loading it back gives the same store,
 * and the same export, byte for byte. Only the pets there when it began are
 * written: a store appends to its array, so later creates are not seen.
 */
export function* exportJson(pets: readonly Pet[], nextId: number): Generator<string> {
  const count = pets.length;
  let piece = exportHead(nextId);
  for (let i = 0; i < count; i++) {
    piece += (i > 0 ? ',' : '') + stringifyJson(pets[i]);
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield piece + EXPORT_TAIL;
}
