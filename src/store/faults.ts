import type { Interceptor, OperationRequest } from '../kernel/operation.js';
import { ApiError, codeForStatus } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import type { OperationSpec } from '../openapi/spec.js';

/** What a client asks for: a delay and/or a forced error on one operation. */
export interface FaultInput {
  operationId: string;
  /** Fixed delay in ms, or a uniform range. */
  latencyMs?: number | { min: number; max: number };
  /** An error status to answer with instead of the operation. */
  status?: number;
  /** Applies to the next `count` matching requests, then is removed. */
  count?: number;
  /** Applies to this fraction (0..1] of matching requests. Default 1. */
  rate?: number;
}

export interface Fault extends FaultInput {
  id: number;
  /** Requests it has applied to so far. */
  applied: number;
}

/** 5xx statuses a fault may force to rehearse an outage, beyond the operation's documented ones. */
export const OUTAGE_STATUSES: readonly number[] = [500, 502, 503, 504];
const MAX_LATENCY_MS = 60_000;

/** The statuses a fault may force on an operation: the errors it documents, then the outages. */
export const faultStatuses = (op: Pick<OperationSpec, 'responses'>): number[] => [...op.responses.keys()].filter((s) => s >= 400).concat(OUTAGE_STATUSES);

/** A plain timer that either signal cuts short, with its reason (node:timers/promises' setTimeout, without Node: the engine runs in a browser too). */
function delay(ms: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = signals.find((signal) => signal?.aborted);
    if (aborted) return reject(aborted.reason as Error);
    const stop = () => {
      clearTimeout(timer);
      for (const signal of signals) signal?.removeEventListener('abort', abort);
    };
    const abort = (event: Event) => {
      stop();
      reject((event.target as AbortSignal).reason as Error);
    };
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    for (const signal of signals) signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A fault's delay, cut short when the client leaves: a delay of up to a
 * minute must not keep its timer (nor the process, on SIGTERM) for a
 * client that is gone. Such a request goes no further. Cut short too when
 * the sandbox closes: then it is answered with the close's 503 at once.
 */
async function sleep(ms: number, request: OperationRequest): Promise<void> {
  const { signal, closing } = request;
  try {
    await delay(ms, [signal, closing]);
  } catch (error) {
    if (closing?.aborted && closing.reason instanceof ApiError) throw closing.reason;
    if (signal?.aborted) throw ApiError.of('invalid_request', 'The client closed the connection during the injected delay.');
    throw error;
  }
}
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const FAULT_FIELDS = ['operationId', 'latencyMs', 'status', 'count', 'rate'];

/** Validates a fault as a client gave it; throws a 400 ApiError saying what is wrong. */
export function checkFault(operations: ReadonlyMap<string, OperationSpec>, input: FaultInput): void {
  // The input is echoed and listed as the fault: anything unchecked would come back out.
  const unknown = Object.keys(input).find((k) => !FAULT_FIELDS.includes(k));
  if (unknown !== undefined) throw ApiError.of('invalid_request', `Unknown fault property ${echo(unknown)}; a fault has: ${FAULT_FIELDS.join(', ')}.`);
  const op = operations.get(input.operationId);
  if (!op) throw ApiError.of('invalid_request', `Unknown operationId ${echo(String(input.operationId))}; one of: ${[...operations.keys()].join(', ')}.`);
  if (input.latencyMs === undefined && input.status === undefined) throw ApiError.of('invalid_request', 'A fault needs "latencyMs" and/or "status".');
  const latency: unknown = input.latencyMs === undefined ? 0 : input.latencyMs;
  const range = isNumber(latency) ? { min: latency, max: latency } : (latency as { min?: unknown; max?: unknown } | null);
  const isRange = typeof range === 'object' && range !== null && Object.keys(range).every((k) => k === 'min' || k === 'max');
  if (!isRange || !isNumber(range.min) || !isNumber(range.max) || !(range.min >= 0 && range.max >= range.min && range.max <= MAX_LATENCY_MS)) {
    throw ApiError.of('invalid_request', `"latencyMs" must be a number or {min, max} with 0 <= min <= max <= ${MAX_LATENCY_MS}.`);
  }
  if (input.status !== undefined) {
    const allowed = faultStatuses(op);
    if (!allowed.includes(input.status))
      throw ApiError.of('invalid_request', `Status ${input.status} cannot be forced on ${op.operationId}; allowed: ${allowed.join(', ')}.`);
  }
  if (input.count !== undefined && !(Number.isInteger(input.count) && input.count > 0))
    throw ApiError.of('invalid_request', '"count" must be a positive integer.');
  if (input.rate !== undefined && !(isNumber(input.rate) && input.rate > 0 && input.rate <= 1))
    throw ApiError.of('invalid_request', '"rate" must be greater than 0 and at most 1.');
}

/** Per-workspace faults, and the interceptor that applies them. */
export class Faults {
  private readonly byWorkspace = new Map<string, Fault[]>();
  private nextId = 1;

  constructor(
    private readonly operations: ReadonlyMap<string, OperationSpec>,
    /** The workspace id of an API key. */
    private readonly workspaceOf: (key: string) => string,
  ) {}

  list(workspace: string): Fault[] {
    return this.byWorkspace.get(workspace) ?? [];
  }

  /** Validates and adds a fault; throws a 400 ApiError saying what is wrong. */
  add(workspace: string, input: FaultInput): Fault {
    checkFault(this.operations, input);
    const fault: Fault = { ...input, id: this.nextId++, applied: 0 };
    this.byWorkspace.set(workspace, [...this.list(workspace), fault]);
    return fault;
  }

  clear(workspace: string, id?: number): number {
    const before = this.list(workspace);
    const after = id === undefined ? [] : before.filter((f) => f.id !== id);
    // An empty list gives up its slot: with open keys, ever new workspaces would otherwise each keep one.
    if (after.length > 0) this.byWorkspace.set(workspace, after);
    else this.byWorkspace.delete(workspace);
    return before.length - after.length;
  }

  /** Delays or fails requests of the caller's workspace as its faults say; without faults, at once. */
  readonly interceptor: Interceptor = (request) => {
    if (this.byWorkspace.size === 0) return undefined;
    const faults = this.byWorkspace.get(this.workspaceOf(request.key));
    if (!faults || faults.length === 0) return undefined;
    return this.apply(faults, request);
  };

  private apply(faults: Fault[], request: OperationRequest): Promise<undefined> {
    return applyFirst(faults, request, (fault) => {
      fault.applied += 1;
      if (fault.count !== undefined && fault.applied >= fault.count) this.clear(this.workspaceOf(request.key), fault.id);
      return fault;
    });
  }
}

/**
 * The apply loop of every store's faults: the first fault of the request's
 * operation that its `rate` lets through and that `take` grants (counted
 * as applied; undefined when its `count` was used up meanwhile) is
 * enacted. How a fault is taken (in memory, or by a statement) is the store's.
 */
export async function applyFirst(
  faults: readonly Fault[],
  request: OperationRequest,
  take: (fault: Fault) => Fault | undefined | Promise<Fault | undefined>,
): Promise<undefined> {
  for (const fault of faults) {
    if (fault.operationId !== request.op.operationId) continue;
    if (fault.rate !== undefined && Math.random() >= fault.rate) continue;
    const taking = take(fault);
    // Taken at once where it can be: in memory, a fault's count is used before any other request runs.
    const taken = taking instanceof Promise ? await taking : taking;
    if (taken) return enact(taken, request);
  }
  return undefined;
}

/** How the message of every answer a fault forces begins: the journal, the pact recorder and the metrics tell them by it. */
export const FAULT_MESSAGE = 'Fault injected by the sandbox';

/** Applies a fault to a request: its delay, then its error if it has one. */
async function enact(fault: Fault, request: OperationRequest): Promise<undefined> {
  if (fault.latencyMs !== undefined) {
    const { min, max } = typeof fault.latencyMs === 'object' ? fault.latencyMs : { min: fault.latencyMs, max: fault.latencyMs };
    await sleep(min + Math.random() * (max - min), request);
  }
  if (fault.status !== undefined) {
    const headers: Record<string, string> = fault.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    throw new ApiError(
      codeForStatus(fault.status),
      fault.status,
      `${FAULT_MESSAGE} (fault ${fault.id}): ${request.op.operationId} answers ${fault.status}.`,
      headers,
    );
  }
  return undefined;
}
