import { ControlError } from '../../src/control/client.js';
import type { ControlOperationId } from '../../src/control/routes.js';

/** What each operation the console calls does, as the end of "Could not …". */
const DOING: Partial<Record<ControlOperationId, string>> = {
  getMode: 'read the mode',
  setMode: 'switch the mode',
  listWorkspaces: 'list the workspaces',
  listFixtures: 'list the fixture sets',
  resetWorkspace: 'reset the workspace',
  loadFixture: 'load the fixture set',
  exportWorkspace: 'read the workspace',
  clearJournal: 'clear the journal',
  streamJournal: 'follow the journal',
  streamUnauthenticatedJournal: 'follow the requests without a valid key',
  clearUnauthenticatedJournal: 'clear the requests without a valid key',
  listOperations: "read the interface's operations",
  listFaults: 'list the faults',
  addFault: 'add the fault',
  clearFaults: 'remove the faults',
  deleteFault: 'remove the fault',
};

const ended = (text: string): string => (/[.!?)]$/.test(text) ? text : `${text}.`);

/**
 * A failure as a sentence for a person: what could not be done, then why,
 * in the sandbox's own words (the Error body's message), never the
 * operation's id or its route: "Could not add the fault: Status 404 cannot
 * be forced on listPets; allowed: …".
 */
export function sentence(error: unknown): string {
  if (!(error instanceof ControlError)) return ended(error instanceof Error ? error.message : String(error));
  const doing = DOING[error.operationId as ControlOperationId] ?? 'do that';
  if (error.status === undefined) return `Could not ${doing}: the sandbox does not answer (is it still running?).`;
  if (error.body) return `Could not ${doing}: ${ended(error.body.message)}`;
  return `Could not ${doing}: the sandbox answered ${error.status}, without an explanation.`;
}
