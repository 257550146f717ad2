import type { Spec } from './spec.js';
import type { Issue, SchemaCheck, Validators } from './validate.js';

/** What a response breaks of the spec, from its operation (null when none matched), status and body value. */
export type ResponseIssues = (operationId: string | null, status: number, body: unknown) => Issue[];

/**
 * The one check of a response against the spec, for the journal and the
 * proxy alike: a status its operation documents, with a body valid against
 * that response's schema. A status the operation does not document is never
 * valid, whatever its body. A request that matched no operation has nothing
 * documented to compare with: its answer is valid when it is an Error body
 * with a status of 400 or more.
 */
export function responseIssues(spec: Spec, validators: Validators): ResponseIssues {
  const checks = new Map<string, SchemaCheck>();
  const error = validators.schema('/components/schemas/Error', 'body');
  const schemaCheck = (pointer: string) => {
    let check = checks.get(pointer);
    if (!check) checks.set(pointer, (check = validators.schema(pointer, 'body')));
    return check;
  };
  return (operationId, status, body) => {
    const op = operationId ? spec.operations.get(operationId) : undefined;
    if (!op) {
      if (status < 400) return [{ in: 'status', name: '', message: `${status} answers a request that matches no operation of the spec` }];
      return error(body);
    }
    const documented = op.responses.get(status);
    if (!documented)
      return [{ in: 'status', name: '', message: `${status} is not a documented status of ${op.operationId} (${[...op.responses.keys()].join(', ')})` }];
    const pointer = documented.schemaPointer;
    if (!pointer) return body === undefined || body === null ? [] : [{ in: 'body', name: '', message: 'must be empty' }];
    return schemaCheck(pointer)(body);
  };
}
