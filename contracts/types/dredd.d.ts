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

