/**
 * A user's project around the installed package, as the package test
 * writes it: an ESM `package.json`, strict tsconfigs for the two module
 * resolutions a TypeScript project uses (`nodenext`; `bundler`), an example
 * that uses every entry the package exports and exits non-zero on a wrong
 * answer, and a script that only imports the command line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Checked as strictly as a careful user would: the shipped declarations included (no `skipLibCheck`). */
const STRICT = { strict: true, noEmit: true, skipLibCheck: false, verbatimModuleSyntax: true, target: 'es2022', lib: ['es2023'], types: ['node'] };

/** The tsconfig of each resolution, by file name. */
export const TSCONFIGS = {
  'tsconfig.json': { compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' }, files: ['example.ts'] },
  'tsconfig.bundler.json': { compilerOptions: { ...STRICT, module: 'preserve', moduleResolution: 'bundler' }, files: ['example.ts'] },
};

/** The example: TypeScript that Node runs as it is (types stripped), so the checked text is the run one. */
export const EXAMPLE = `import { runCli } from 'petstore-sandbox/cli';

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(\`wrong answer: \${what}\`);
}

check('the command line is a function', typeof runCli === 'function');
const code: number = await runCli(['--version'], {});
check('--version exits 0', code === 0);
console.log('example: ok');
`;

/** Imports the command line and does nothing else: the process must end at once, having printed nothing. */
export const IMPORT_CLI = `import { runCli } from 'petstore-sandbox/cli';
if (typeof runCli !== 'function') process.exit(3);
`;

/** Writes the project's files into `dir` (where the tarball is then installed). */
export function writeScratchProject(dir: string): void {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(join(dir, 'package.json'), json({ name: 'petstore-sandbox-user', private: true, type: 'module' }));
  for (const [name, config] of Object.entries(TSCONFIGS)) writeFileSync(join(dir, name), json(config));
  writeFileSync(join(dir, 'example.ts'), EXAMPLE);
  writeFileSync(join(dir, 'import-cli.mjs'), IMPORT_CLI);
}
