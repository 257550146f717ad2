/**
 * The QA console built with a broken `dom.ts` that writes every value as
 * HTML: what the XSS test must catch. Built in memory, never served by the
 * sandbox itself; a test routes the page's script to it.
 */
import { build, type Plugin } from 'esbuild';
import { join } from 'node:path';

const UI = join(import.meta.dirname, '..', '..', '..', 'web', 'console');

/** `dom.ts` with text replaced by HTML: `append(text)` becomes `insertAdjacentHTML`. */
const unsafeDom: Plugin = {
  name: 'unsafe-dom',
  setup(b) {
    b.onLoad({ filter: /web[\\/]console[\\/]dom\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const broken = source.replaceAll(
        "node.append(typeof child === 'object' ? child : String(child))",
        "typeof child === 'object' ? node.append(child) : node.insertAdjacentHTML('beforeend', String(child))",
      );
      if (broken === source) throw new Error('dom.ts changed: update the unsafe variant of the XSS test.');
      return { contents: broken, loader: 'ts' };
    });
  },
};

export async function buildUnsafeConsole(): Promise<string> {
  const result = await build({ entryPoints: [join(UI, 'main.ts')], bundle: true, format: 'iife', write: false, plugins: [unsafeDom], logLevel: 'silent' });
  return result.outputFiles[0]?.text ?? '';
}
