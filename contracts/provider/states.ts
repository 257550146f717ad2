import type { Verifier } from '@pact-foundation/pact';
import type { ControlClient } from '../../src/control/client.js';
import type { components } from '../../src/openapi/schema.js';

type PetRecord = components['schemas']['Pet'];

type Params = Record<string, unknown>;

/** Pact JS does not export the name of this type. */
export type StateHandlers = NonNullable<ConstructorParameters<typeof Verifier>[0]['stateHandlers']>;

interface StatePattern {
  /** The state name as consumers write it, for the error listing known states. */
  example: string;
  pattern: RegExp;
  setup(control: ControlClient, match: RegExpExecArray, params: Params): Promise<unknown>;
}

const STATUSES = ['available', 'pending', 'sold'] as const;

/** Pets of every status (two of each) and one without status. */
const SOME_PETS: readonly PetRecord[] = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
  { id: 3, name: 'Polly', categoryId: 3, status: 'sold' },
  { id: 4, name: 'Bubbles', categoryId: 4 },
  { id: 5, name: 'Felix', categoryId: 2, status: 'sold' },
  { id: 6, name: 'Nemo', categoryId: 5, status: 'available' },
  { id: 7, name: 'Kiwi', categoryId: 6, status: 'pending' },
];

/** Replaces the workspace's pets with these. */
const load = (control: ControlClient, pets: PetRecord[]) => control.call('loadFixture', { body: { pets, mode: 'replace' } });

/** A pet named by the state's parameters where given (`name`, `categoryId`, `status`). */
function petFrom(id: number, params: Params): PetRecord {
  const pet: PetRecord = {
    id,
    name: typeof params.name === 'string' ? params.name : 'Rex',
    categoryId: typeof params.categoryId === 'number' ? params.categoryId : 1,
  };
  const status = params.status ?? 'available';
  if ((STATUSES as readonly unknown[]).includes(status)) pet.status = status as PetRecord['status'];
  return pet;
}

/**
 * The provider states this service can set up, each by clearing the
 * workspace and loading what the state describes through the control plane
 * (the same loader as `POST /__sandbox/load`). Parameterised: any id, any status.
 */
export const PROVIDER_STATES: readonly StatePattern[] = [
  {
    example: 'a pet with id 7 exists',
    pattern: /^a pet with id (\d+) exists$/,
    setup: (control, match, params) => load(control, [petFrom(Number(match[1]), params)]),
  },
  {
    example: 'no pet with id 999 exists',
    pattern: /^no pet with id (\d+) exists$/,
    // Other pets exist, so a provider that answered any id with some pet would be caught.
    setup: (control, match) =>
      load(
        control,
        SOME_PETS.filter((pet) => pet.id !== Number(match[1])),
      ),
  },
  {
    example: 'no pets exist',
    pattern: /^no pets exist$/,
    setup: (control) => control.call('resetWorkspace', { body: { empty: true } }),
  },
  {
    example: 'pets with status sold exist',
    pattern: /^pets with status (available|pending|sold) exist$/,
    // Every status is present, so a filter that ignored `status` would be caught.
    setup: (control) => load(control, [...SOME_PETS]),
  },
  {
    example: 'the request has no valid API key',
    pattern: /^the request has no valid API key$/,
    // Nothing to store: the verification's request filter sends no key for this interaction.
    setup: async () => undefined,
  },
];

/** State handlers, and the setups that failed (Pact logs a failing handler but still verifies). */
export interface ProviderStateSetup {
  handlers: StateHandlers;
  failures: string[];
}

/**
 * State handlers for exactly the state names the pact files use (Pact looks
 * handlers up by name). A name that matches no known state, or a setup the
 * control plane refuses, is recorded in `failures`: Pact JS only logs an
 * error thrown by a handler and goes on, so the caller must fail the run.
 */
export function createStateHandlers(stateNames: readonly string[], control: ControlClient): ProviderStateSetup {
  const failures: string[] = [];
  const handlers: StateHandlers = {};
  for (const name of stateNames) {
    handlers[name] = async (params?: unknown) => {
      const p = (params && typeof params === 'object' && !Array.isArray(params) ? params : {}) as Params;
      const known = PROVIDER_STATES.map((state) => ({ state, match: state.pattern.exec(name) })).find((s) => s.match);
      if (!known?.match) {
        failures.push(`unknown provider state '${name}' (known: ${PROVIDER_STATES.map((s) => `'${s.example}'`).join(', ')})`);
        return undefined;
      }
      try {
        await known.state.setup(control, known.match, p);
      } catch (error) {
        failures.push(`provider state '${name}' could not be set up: ${(error as Error).message}`);
      }
      return undefined;
    };
  }
  return { handlers, failures };
}
