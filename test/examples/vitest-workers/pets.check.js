// Copied as pets-01.check.js, pets-02.check.js...: each file creates pets named after its run, its worker
// and itself, and reads the list; it records its worker's key for the test to read that key's journal.
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { sandboxContext, sandboxWorkspace } from 'petstore-sandbox/vitest';

const { url, baseUrl, key, authorization } = sandboxContext();
const worker = process.env.FIXTURE_WORKER ?? process.env.VITEST_POOL_ID;
const file = basename(fileURLToPath(import.meta.url), '.check.js');
const tag = `r${process.env.FIXTURE_RUN}-w${worker}`;
writeFileSync(join(process.env.RESULTS_DIR, `${file}.json`), JSON.stringify({ url, key, tag, file }));

const names = async () => {
  const listed = await fetch(`${baseUrl}/pets?limit=100`, { headers: { authorization } });
  expect(listed.status).toBe(200);
  return (await listed.json()).map((pet) => pet.name);
};

it('starts on its worker workspace as seeded', async () => {
  expect((await names()).filter((name) => /^r\d+-w\d+-/.test(name))).toEqual([]);
  expect((await sandboxWorkspace().export()).pets.length).toBe(Number(process.env.FIXTURE_SEEDED ?? 50));
});

it('creates pets and reads them back in the list', async () => {
  const made = [0, 1, 2].map((i) => `${tag}-${file}-${i}`);
  for (const name of made) {
    const created = await fetch(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    expect(created.status).toBe(201);
  }
  expect((await names()).filter((name) => /^r\d+-w\d+-/.test(name))).toEqual(made);
});
