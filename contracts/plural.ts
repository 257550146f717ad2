/** `1 request`, `2 requests`, `0 requests`: a count with its noun, as the reports print it. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
