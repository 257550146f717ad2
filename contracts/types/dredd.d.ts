/** The part of Dredd 14's Node API this project uses (the package ships no types). */
declare module 'dredd' {
  import type { EventEmitter } from 'node:events';

  export interface DreddConfig {
    endpoint: string;
    path: string[];
    hookfiles?: string[];
    loglevel?: 'silent' | 'error' | 'warning' | 'debug';
    reporter?: string[];
    color?: boolean;
    emitter?: EventEmitter;
    [option: string]: unknown;
  }

  export interface DreddStats {
    tests: number;
    failures: number;
    errors: number;
    passes: number;
    skipped: number;
    duration: number;
  }

  class Dredd {
    constructor(config: DreddConfig);
    run(callback: (error: Error | null, stats: DreddStats) => void): void;
  }
  export = Dredd;
}

/**
 * The `hooks` module Dredd hands to a hook file (through proxyquire), and
 * the parts of a transaction the hooks read and change.
 */
declare module 'hooks' {
  export interface Transaction {
    name: string;
    /** Where in the spec it comes from; its parts name the transaction in the reports. */
    origin?: { resourceName?: string; actionName?: string; exampleName?: string };
    /** The request path with the endpoint's base path, e.g. `/v1/pets/7`. */
    fullPath: string;
    protocol: string;
    host: string;
    port: number | string;
    request: { method: string; uri: string; headers: Record<string, string>; body: string };
    expected: { statusCode: string; body?: string; bodySchema?: unknown };
    /** The response, once there is one. */
    real?: { statusCode: number | string; headers: Record<string, string>; body: string };
    skip: boolean;
    /** A message fails the transaction. */
    fail?: boolean | string;
    /** Dredd's own verdict, after its validation. */
    test?: { valid?: boolean; message?: string };
  }

  interface Hooks {
    beforeAll(hook: (transactions: Transaction[], done: () => void) => void): void;
    beforeEach(hook: (transaction: Transaction, done: () => void) => void): void;
    beforeEachValidation(hook: (transaction: Transaction) => void): void;
    afterEach(hook: (transaction: Transaction, done: () => void) => void): void;
  }

  const hooks: Hooks;
  export = hooks;
}
