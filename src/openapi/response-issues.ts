import type { OperationSpec, Spec } from './spec.js';
import type { Issue, SchemaCheck, Validators } from './validate.js';

/**
 * What a response breaks of the spec, from its operation (null when none
 * matched), status and body value. `bodyChecked`: the body was built from
 * values already checked against the spec (a pet of the store), so only
 * its status is judged.
 */
export type ResponseIssues = (operationId: string | null, status: number, body: unknown, bodyChecked?: boolean) => Issue[];

type StatusCheck = (body: unknown, bodyChecked: boolean) => Issue[];

// Fresh arrays: a caller may add its own issues to the ones returned (proxy mode's headers).
const none = (): Issue[] => [];
const mustBeEmpty = (): Issue[] => [{ in: 'body', name: '', message: 'must be empty' }];

/**
 * The checks of one operation, one per documented status, made once. A
 * schema is compiled on its first use and shared by every status that
 * names it: start-up compiles nothing it does not run.
 */
function compileOperation(op: OperationSpec, schemaCheck: (pointer: string) => SchemaCheck): Map<number, StatusCheck> {
  const byStatus = new Map<number, StatusCheck>();
  for (const [status, { schemaPointer }] of op.responses) {
    if (!schemaPointer) byStatus.set(status, (body) => (body === undefined || body === null ? none() : mustBeEmpty()));
    else {
      let check: SchemaCheck | undefined;
      byStatus.set(status, (body, bodyChecked) => (bodyChecked ? none() : (check ??= schemaCheck(schemaPointer))(body)));
    }
  }
  return byStatus;
}

/**
 * What an answer to a request no operation matches must be: the spec's
 * `Error` when it has one (the Pet Store's), else any JSON object (a spec
 * of another shape names its errors as it likes, `openapi/error-shape.ts`).
 */
function errorCheck(spec: Spec, validators: Validators): SchemaCheck {
  const schemas = (spec.document.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  if (schemas?.Error !== undefined) return validators.schema('/components/schemas/Error', 'body');
  return (body) => (body !== null && typeof body === 'object' && !Array.isArray(body) ? [] : [{ in: 'body', name: '', message: 'must be an object' }]);
}

/**
 * The one check of a response against the spec, for the journal and the
 * proxy alike: a status its operation documents, with a body valid against
 * that response's schema. A status the operation does not document is never
 * valid, whatever its body. A request that matched no operation has nothing
 * documented to compare with: its answer is valid when it is an Error body
 * with a status of 400 or more. Compiled once per operation and status: an
 * answer costs two map reads before its schema check.
 */
export function responseIssues(spec: Spec, validators: Validators): ResponseIssues {
  const schemas = new Map<string, SchemaCheck>();
  const schemaCheck = (pointer: string) => {
    let check = schemas.get(pointer);
    if (!check) schemas.set(pointer, (check = validators.schema(pointer, 'body')));
    return check;
  };
  const error = errorCheck(spec, validators);
  const table = new Map<string, Map<number, StatusCheck>>();
  for (const [id, op] of spec.operations) table.set(id, compileOperation(op, schemaCheck));
  return (operationId, status, body, bodyChecked = false) => {
    const byStatus = operationId === null ? undefined : table.get(operationId);
    if (!byStatus) {
      if (status < 400) return [{ in: 'status', name: '', message: `${status} answers a request that matches no operation of the spec` }];
      return error(body);
    }
    const check = byStatus.get(status);
    if (check) return check(body, bodyChecked);
    const op = spec.operations.get(operationId as string) as OperationSpec;
    return [{ in: 'status', name: '', message: `${status} is not a documented status of ${op.operationId} (${[...op.responses.keys()].join(', ')})` }];
  };
}
