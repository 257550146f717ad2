/**
 * A user's project around the installed package, as the package test
 * writes it: an ESM `package.json`, strict tsconfigs for the two module
 * resolutions a TypeScript project uses (`nodenext`; `bundler`), an example
 * that uses every entry the package exports and exits non-zero on a wrong
 * answer, a page that uses the browser build of `petstore-sandbox/msw`
 * (type-checked only), and a script that only imports the entries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Checked as strictly as a careful user would: the shipped declarations included (no `skipLibCheck`). */
const STRICT = { strict: true, noEmit: true, skipLibCheck: false, verbatimModuleSyntax: true, target: 'es2022', lib: ['es2023'], types: ['node'] };

/** A browser page's options, as Vite's templates set them: bundler resolution, the DOM, no Node types. */
const PAGE = { ...STRICT, module: 'preserve', moduleResolution: 'bundler', lib: ['es2023', 'dom', 'dom.iterable'], types: [] };
const BROWSER_TYPES = './node_modules/petstore-sandbox/dist/browser/msw.d.ts';

/** The tsconfig of each resolution, by file name. */
export const TSCONFIGS = {
  'tsconfig.json': { compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' }, files: ['example.ts'] },
  'tsconfig.bundler.json': { compilerOptions: { ...STRICT, module: 'preserve', moduleResolution: 'bundler' }, files: ['example.ts'] },
  // The page, as docs/test-runners.md ("TypeScript in a browser project") says to check it: the `browser` condition, or a path to its declarations.
  'tsconfig.page.json': { compilerOptions: { ...PAGE, customConditions: ['browser'] }, files: ['page.ts'] },
  'tsconfig.page-paths.json': { compilerOptions: { ...PAGE, paths: { 'petstore-sandbox/msw': [BROWSER_TYPES] } }, files: ['page.ts'] },
};

/** The page under `moduleResolution: "bundler"` alone: TypeScript reads the Node build's declarations, and must refuse the page. */
export const PAGE_WITHOUT_BROWSER = { 'tsconfig.page-plain.json': { compilerOptions: PAGE, files: ['page.ts'] } };

/**
 * The example: TypeScript that Node runs as it is (types stripped), so the
 * checked text is the run one. The `@ts-expect-error` lines fail the check
 * if the shipped types were loose (`any`) where they must be precise.
 */
export const EXAMPLE = `import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createSandbox,
  type CreateSandboxOptions,
  type ErrorBody,
  type NewPet,
  type Pet,
  type PetStatus,
  type PetstoreSandbox,
  type Workspace,
} from 'petstore-sandbox';
import { petstoreSandbox, type SandboxMiddleware } from 'petstore-sandbox/middleware';
import { runCli } from 'petstore-sandbox/cli';

function check(what: string, ok: boolean): void {
  if (!ok) throw new Error(\`wrong answer: \${what}\`);
}

const options: CreateSandboxOptions = { store: 'memory', seed: 7, count: 3, apiKeys: ['team-key'] };
const auth = { headers: { authorization: 'Bearer team-key' } };

const sandbox: PetstoreSandbox = await createSandbox(options);
try {
  const listed = await sandbox.fetch('/v1/pets', auth);
  check('GET /v1/pets answers 200', listed.status === 200);
  check('the three seeded pets', ((await listed.json()) as unknown[]).length === 3);

  const workspace: Workspace = sandbox.workspace('team-key');
  const loaded = await workspace.load({ pets: [{ id: 7, name: 'Rex', categoryId: 1, status: 'available' }] });
  const count: number = loaded.count;
  check('load keeps the one pet', count === 1 && loaded.nextId > 7);
  const got = await sandbox.fetch('/v1/pets/7', auth);
  check('the loaded pet is served', got.status === 200 && ((await got.json()) as Pet).name === 'Rex');
  const body: NewPet = { name: 'Typed', categoryId: 2, status: 'pending' };
  const post = { method: 'POST', headers: { ...auth.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const created = await sandbox.fetch('/v1/pets', post);
  const pet = (await created.json()) as Pet;
  const status: PetStatus | undefined = pet.status;
  check('a created Pet', created.status === 201 && pet.name === 'Typed' && status === 'pending' && pet.id > 7);
  const missing = (await (await sandbox.fetch('/v1/pets/999999', auth)).json()) as ErrorBody;
  check('an ErrorBody', missing.code === 'not_found' && missing.status === 404);
  // @ts-expect-error: a status the interface does not have
  const lost: PetStatus = 'lost';
  void lost;
  check('reset empties the workspace', (await workspace.reset({ empty: true })).count === 0);
  const journal = await workspace.journal.read({ limit: 10 });
  const operations = journal.entries.map((entry) => entry.operationId);
  check('the journal holds both requests', operations.includes('listPets') && operations.includes('getPet'));
  // @ts-expect-error: a fixture set's name is a string
  void workspace.load({ fixture: 42 }).catch(() => undefined);
  // @ts-expect-error: reset takes no such option
  void workspace.reset({ pets: 3 }).catch(() => undefined);
} finally {
  await sandbox.close();
}

const middleware: SandboxMiddleware = petstoreSandbox(options);
const connect: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void = middleware;
check('the middleware takes a request, a response and next', typeof connect === 'function' && connect.length === 3);
const behind = await middleware.sandbox;
check('the middleware serves its own sandbox', (await behind.fetch('/v1/pets', auth)).status === 200);
await middleware.close();

const code: number = await runCli(['--version'], {});
check('petstore-sandbox --version exits 0', code === 0);
console.log('example: ok');
`;

/**
 * A page that uses the browser build of `petstore-sandbox/msw`: `createBrowserSandbox`
 * and `BrowserSandbox` exist only there. Type-checked, never run.
 */
export const PAGE_SOURCE = `import { setupWorker } from 'msw/browser';
import { createBrowserSandbox, sandboxHandlers, type BrowserSandbox, type Pet } from 'petstore-sandbox/msw';

export async function firstPetName(): Promise<string> {
  const sandbox: BrowserSandbox = await createBrowserSandbox({ seed: 1, count: 3 });
  const answer = await sandbox.fetch('/v1/pets/1', { headers: { authorization: 'Bearer sandbox-key' } });
  const pet = (await answer.json()) as Pet;
  await sandbox.close();
  return pet.name;
}

export async function startWorker(): Promise<void> {
  const sandbox = sandboxHandlers({ seed: 1, count: 20, origin: window.location.origin });
  await setupWorker(...sandbox.handlers).start({ onUnhandledFrame: 'bypass' });
}
`;

/** Imports every entry and does nothing else: the process must end at once, having printed nothing. */
export const IMPORT_ONLY = `import { createSandbox } from 'petstore-sandbox';
import { petstoreSandbox } from 'petstore-sandbox/middleware';
import { runCli } from 'petstore-sandbox/cli';
if (![createSandbox, petstoreSandbox, runCli].every((f) => typeof f === 'function')) process.exit(3);
`;

/** Writes the project's files into `dir` (where the tarball is then installed). */
export function writeScratchProject(dir: string): void {
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(join(dir, 'package.json'), json({ name: 'petstore-sandbox-user', private: true, type: 'module' }));
  for (const [name, config] of Object.entries({ ...TSCONFIGS, ...PAGE_WITHOUT_BROWSER })) writeFileSync(join(dir, name), json(config));
  writeFileSync(join(dir, 'example.ts'), EXAMPLE);
  writeFileSync(join(dir, 'page.ts'), PAGE_SOURCE);
  writeFileSync(join(dir, 'import-only.mjs'), IMPORT_ONLY);
}
