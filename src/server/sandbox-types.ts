import type { SpecSource } from './served-specs.js';
import type { RequestListener, Server } from 'node:http';
import type { Backend, ModeStore, WorkspaceStore } from '../store/backend.js';
import type { RefusedRequest } from '../ops/request-log.js';
import type { ClosableEngine } from '../engine/engine.js';
import type { Tracing } from '../kernel/tracing.js';

export interface Sandbox {
  /** e.g. `http://127.0.0.1:4010` */
  origin: string;
  /** e.g. `http://127.0.0.1:4010/v1`: the first API's */
  baseUrl: string;
  /** The base path of each API served, in the order given (`['/v1']`: the Pet Store alone). */
  bases: readonly string[];
  server: Server;
  /** Everything the sandbox keeps. */
  backend: Backend;
  /** The mode /v1 answers in (the backend's). */
  runtime: ModeStore;
  workspaces: WorkspaceStore;
  /** The effective cap on open connections (`--max-connections`, lowered to fit the open-file limit). */
  maxConnections: number;
  /** What the operator should know at start-up (e.g. a lowered connection cap). */
  notices: string[];
  /** Starts shutting down: `/readyz` answers 503 from now on, everything else is still served until `close`. */
  drain(): void;
  /**
   * Stops: new requests are answered 503 (`Retry-After`), the listener
   * closes, requests under way finish (their writes with them), then every
   * store is flushed and closed and the data file's lock released.
   */
  close(): Promise<void>;
}

export interface SandboxOptions {
  /**
   * With `--store memory`: the secret workspace ids are keyed with (32
   * bytes), so that two sandboxes name a key's workspace alike. Default: a
   * new random one per start (a data file or a database keeps its own).
   */
  workspaceSecret?: Uint8Array;
  /** The specs to serve, files or documents, in place of the configuration's `--spec` files (the library's `spec` option). */
  specs?: readonly SpecSource[];
  /** Traces of each request (ops/tracing.ts, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set); its owner closes it. */
  tracing?: Tracing | undefined;
}

/** A sandbox assembled but not listening: what serves its requests, and what it keeps. */
export interface Assembled {
  /** The Node request listener: the pages, then the engine through its Node middleware. */
  listener: RequestListener;
  /** The engine: `/v1`, the control plane and the probes, plain values in and out, no socket; `close()` ends its waits. */
  engine: ClosableEngine;
  /** Where the listener's server reports the requests it refused before any handler saw them. */
  onRefused: (refused: RefusedRequest) => void;
  backend: Backend;
  /** The base path of each API served, in the order given (`['/v1']`: the Pet Store alone). */
  bases: readonly string[];
  /** The caps on connections and open workspaces the open-file limit allows, and notes on what was lowered. */
  caps: { connections: number; workspaces: number; notes: string[] };
  /** Starts shutting down: `/readyz` answers 503 from now on. */
  drain(): void;
  /**
   * Stops serving through `listener`: every request from now on is answered
   * 503 with `Retry-After`; resolves once those it is answering have their
   * answers (their writes done). `engine` itself, the library's in-process
   * way in, is not stopped by it.
   */
  stopServing(): Promise<void>;
  /** Flushes and closes every store (and proxy mode's connections). */
  close(): Promise<void>;
}
