/**
 * The control plane's refusals name its HTTP request (headers, body
 * fields); a person at the command line typed flags. These are the phrases
 * of those refusals that name a part of the request, and the command line's
 * words for the same thing.
 */
const CLI_WORDS: readonly (readonly [string, string])[] = [
  ['X-Sandbox-Target-Key is', '--to is'],
  ['X-Sandbox-Key is', '--key is'],
  ['send "overwrite": true to replace it', 'add --overwrite to replace it'],
  ['Save it again with "overwrite": true', 'Save it again with --overwrite'],
  ['use "mode": "replace" or other ids', 'load without --append (it replaces the pets) or use other ids'],
];

/** A control-plane message, worded for the command line: its flags, not its body fields. */
export function cliWording(message: string): string {
  return CLI_WORDS.reduce((text, [http, cli]) => text.replaceAll(http, cli), message);
}
