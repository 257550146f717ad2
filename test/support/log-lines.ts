/** Every line of `text` (a sandbox's stdout or stderr in JSON format), each parsed as JSON: a line that is not JSON throws. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
