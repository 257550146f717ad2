import { ApiError } from '../kernel/errors.js';
import { resolveFixture } from './fixtures.js';
import type { ControlContext, HandlerGroup } from './handler-types.js';
import { readStateChange } from './provider-state-request.js';
import { KNOWN_STATES, planState, type StatePlan } from './provider-states.js';

/** The operations a refused key is answered 401 on: every one of the interface. */
const OPERATIONS = ['listPets', 'createPet', 'getPet'] as const;

/**
 * `POST /__sandbox/provider-states`: sets up (or tears down) the provider
 * states a Pact verifier names, in the workspace of the key the call is for.
 *
 * - Setup carries out each state's plan in order: the pets are replaced
 *   (checked against the Pet schema first, all or nothing), and for
 *   `the request has no valid API key` a one-time 401 is put on each
 *   operation of the workspace (faults, listed in `GET /faults`).
 * - Every call, setup or teardown, first removes the 401s an earlier state
 *   put there and that no request used: verifiers call before every
 *   interaction (with an empty name when it has no state), so the refusal
 *   never outlives the interaction that asked for it.
 * - Teardown does nothing else: the data stays as set up, for looking at
 *   after a failed verification, and the next setup replaces it.
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
  const carryOut = async (key: string, workspace: string, plan: StatePlan) => {
    if (plan.pets) {
      const { pets } = resolveFixture({ pets: [...plan.pets] }, deps.checkPet);
      await workspaces.use(key, (store) => store.replace(pets));
    }
    if (plan.refuseKey) await refuse(workspace);
  };

  return {
    changeProviderState: async ({ key: raw, query, body }) => {
      const change = readStateChange(body, query as Record<string, unknown>);
      const plans = change.states.map((name) => {
        const plan = planState(name, change.params);
        if (!plan)
          throw ApiError.of('invalid_request', `Unknown provider state '${name}'. Known states (ids and statuses may vary): ${KNOWN_STATES.join('; ')}.`);
        return plan;
      });
      const key = keyOf(raw);
      const workspace = workspaceOf(raw);
      await clearRefusals(workspace);
      if (change.action === 'teardown') return {};
      let values: Record<string, unknown> = {};
      for (const plan of plans) {
        await carryOut(key, workspace, plan);
        values = { ...values, ...plan.values };
      }
      return values;
    },
  };
}
