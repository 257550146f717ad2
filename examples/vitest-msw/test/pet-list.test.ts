import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { setupServer } from 'msw/node';
import { sandboxHandlers } from 'petstore-sandbox/msw';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { mountPetList } from '../src/pet-list.js';

const API = 'https://api.example.test';
// The whole Pet Store interface, seeded and stateful, in this process: no server to start.
const sandbox = sandboxHandlers({ seed: 1, count: 3, origin: API });
const server = setupServer(...sandbox.handlers);
const workspace = sandbox.workspace();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
beforeEach(async () => {
  // Each test starts from the seeded pets, no faults and an empty journal.
  await Promise.all([workspace.reset(), workspace.faults.clear(), workspace.journal.clear()]);
  await mountPetList(document.body, { baseUrl: API, apiKey: workspace.key });
});
afterEach(() => {
  document.body.innerHTML = '';
});
afterAll(async () => {
  server.close();
  await sandbox.close();
});

const pets = () => within(screen.getByRole('list', { name: 'pets' })).getAllByRole('listitem');

const addPet = (name: string) => {
  fireEvent.input(screen.getByLabelText('Name'), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: 'Add pet' }));
};

it('lists the seeded pets', async () => {
  const { pets: seeded } = await workspace.export();
  expect(pets().map((item) => item.textContent)).toEqual(seeded.map((pet) => `${pet.name} (${pet.status})`));
});

it('adds a pet, which the sandbox keeps', async () => {
  addPet('Biscuit');
  await waitFor(() => expect(pets()).toHaveLength(4));
  expect(pets().at(-1)?.textContent).toBe('Biscuit (available)');
  const { entries } = await workspace.journal.read();
  expect(entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(['GET /v1/pets 200', 'POST /v1/pets 201']);
  expect(entries.at(-1)?.requestBody).toEqual({ name: 'Biscuit', categoryId: 1, status: 'available' });
  const { pets: stored } = await workspace.export();
  expect(stored.map((pet) => pet.name)).toContain('Biscuit');
});

it('shows the error of a failing create, and adds nothing', async () => {
  await workspace.faults.add({ operationId: 'createPet', status: 503, count: 1 });
  addPet('Biscuit');
  await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Could not reach the pets \(503\): ./));
  expect(pets()).toHaveLength(3);
  const { entries } = await workspace.journal.read();
  expect(entries.at(-1)).toMatchObject({ method: 'POST', path: '/v1/pets', status: 503, operationId: 'createPet' });
  expect((await workspace.export()).pets).toHaveLength(3);
});
