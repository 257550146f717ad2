import { test, expect } from 'petstore-sandbox/playwright';

// The app calls https://app.example/api/v1 with its own key: every test sends those calls to the sandbox instead.
test.beforeEach(async ({ sandbox, page }) => {
  await sandbox.route(page, { api: 'https://app.example/api/v1' });
});

test('lists the pets of the workspace', async ({ sandbox, page }) => {
  await sandbox.workspace.load({
    pets: [
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Tom', categoryId: 2 },
    ],
  });
  await page.goto('/');
  await expect(page.getByRole('listitem')).toHaveText(['Rex', 'Tom']);
});

test('adds a pet, which the sandbox keeps and journals under the worker key', async ({ sandbox, page }) => {
  await sandbox.workspace.reset({ empty: true });
  await page.goto('/');
  await page.getByLabel('Name').fill('Nibbles');
  await page.getByRole('button', { name: 'Add pet' }).click();
  await expect(page.getByRole('listitem')).toHaveText(['Nibbles']);
  const { pets } = await sandbox.workspace.export();
  expect(pets.map((pet) => pet.name)).toEqual(['Nibbles']);
  const { entries } = await sandbox.workspace.journal.read();
  expect(entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toContain('POST /v1/pets 201');
});

test('says so when the API is down', async ({ sandbox, page }) => {
  await sandbox.workspace.faults.add({ operationId: 'listPets', status: 503, count: 1 });
  await page.goto('/');
  await expect(page.getByRole('status')).toHaveText(/Could not load the pets \(503/);
});
