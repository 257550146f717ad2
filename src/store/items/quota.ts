/**
 * How many items one collection holds in one workspace, checked by each
 * store inside the write that creates an item (the file store's serialized
 * write, PostgreSQL's transaction under the collection's row lock), so
 * that creates made together never pass it together.
 */
import { ApiError } from '../../kernel/errors.js';
import type { CollectionKey } from './types.js';

/** The most items one collection holds in one workspace: a create past it is refused (507). */
export const MAX_ITEMS_PER_COLLECTION = 10_000;

/** The refusal of a create into a collection that holds `max` items already. */
export const collectionFull = (key: CollectionKey, max: number): ApiError =>
  ApiError.of('quota_exceeded', `The collection ${key.name} holds its ${max} items in this workspace: delete some first.`);
