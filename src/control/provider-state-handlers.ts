import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { beforeWrite } from './before-write.js';
import { resolveFixture } from './fixtures.js';
import type { ControlContext, HandlerGroup } from './handler-types.js';
import { readStateChange } from './provider-state-request.js';
import { KNOWN_STATES, planState, type StateParams, type StatePlan } from './provider-states.js';

/** The operations a refused key is answered 401 on: every one of the interface. */
const OPERATIONS = ['listPets', 'createPet', 'getPet'] as const;

/**
 * What a request's states come to together, as carrying them out one
 * after another would leave it: the pets of the last state that names
 * pets (each replaces them all), the key refused if any state refuses it,
 * and the values of every state, a later one's over an earlier one's.
 */
function combine(plans: readonly StatePlan[]): StatePlan {
  const combined: StatePlan = { values: {} };
  for (const plan of plans) {
    if (plan.pets) combined.pets = plan.pets;
    if (plan.refuseKey) combined.refuseKey = true;
    combined.values = { ...combined.values, ...plan.values };
  }
  return combined;
}

/** The plan of each state named, or the 400 of the first one unknown. */
function plansOf(states: readonly string[], params: StateParams): StatePlan[] {
  return states.map((name) => {
    const plan = planState(name, params);
    if (!plan)
      throw ApiError.of('invalid_request', `Unknown provider state ${echo(name)}. Known states (ids and statuses may vary): ${KNOWN_STATES.join('; ')}.`);
    return plan;
  });
}

/**
 * `POST /__sandbox/provider-states`: sets up (or tears down) the provider
 * states a Pact verifier names, in the workspace of the key the call is for.
 *
 * - Setup plans every state first (at most MAX_STATES), and checks their
 *   pets against the Pet schema, before anything is written; then it
 *   carries out what they come to together (`combine`) in one write of
 *   the pets, however many states were named: the pets replaced, and for
 *   `the request has no valid API key` a one-time 401 put on each
 *   operation of the workspace (faults, listed in `GET /faults`).
 * - Every call, setup or teardown, first removes the 401s an earlier state
 *   put there and that no request used: verifiers call before every
 *   interaction (with an empty name when it has no state), so the refusal
 *   never outlives the interaction that asked for it.
 * - Teardown does nothing else: the data stays as set up, for looking at
 *   after a failed verification, and the next setup replaces it.
 * - A client that has left before the first write gets nothing written
 *   (`beforeWrite`).
 * - The same call repeated gives the same state (verifiers retry on 5xx).
 */
export function providerStateHandlers({ deps, keyOf, workspaceOf }: ControlContext): HandlerGroup<'changeProviderState'> {
  const { workspaces, faults } = deps;
  /** Fault ids a state put on each workspace, removed by its next state change. */
  const refusals = new Map<string, number[]>();

  const clearRefusals = async (workspace: string) => {
    for (const id of refusals.get(workspace) ?? []) await faults.clear(workspace, id);
    refusals.delete(workspace);
  };
  const refuse = async (workspace: string) => {
    const ids: number[] = [];
    for (const operationId of OPERATIONS) ids.push((await faults.add(workspace, { operationId, status: 401, count: 1 })).id);
    refusals.set(workspace, ids);
  };

  return {
    changeProviderState: async ({ key: raw, query, body, signal }) => {
      const change = readStateChange(body, query as Record<string, unknown>);
      const plan = combine(plansOf(change.states, change.params));
      const pets = plan.pets && resolveFixture({ pets: [...plan.pets] }, deps.checkPet).pets;
      const key = keyOf(raw);
      const workspace = workspaceOf(raw);
      await beforeWrite(signal);
      await clearRefusals(workspace);
      if (change.action === 'teardown') return {};
      if (pets) await workspaces.use(key, (store) => store.replace(pets));
      if (plan.refuseKey) await refuse(workspace);
      return plan.values;
    },
  };
}
