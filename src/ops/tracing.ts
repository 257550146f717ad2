/**
 * Whether the sandbox traces, and what each request's span is told when its
 * answer is made. OpenTelemetry's packages are optional peers, imported
 * only when the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (or its traces-only
 * form) is set: without it there is no tracing at all, not even a module
 * loaded, and the engine's requests take the path they take without it.
 */
import { importPeer, OPTIONAL_PEERS, type OptionalPeer } from '../config/optional-peers.js';
import type { Tracing } from '../kernel/tracing.js';

/** The packages tracing loads: the optional peers of OpenTelemetry (config/optional-peers.ts holds them, with their versions). */
export const TRACING_PEERS = (Object.keys(OPTIONAL_PEERS) as OptionalPeer[]).filter((name) => name.startsWith('@opentelemetry/'));

type Env = Readonly<Record<string, string | undefined>>;

/** Whether `env` asks for traces: an OTLP endpoint set, and neither the SDK disabled nor the traces' exporter `none` (the SDK's own variables). */
export function tracingWanted(env: Env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return false;
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' && env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';
}

/** The tracing `env` asks for, or undefined; a MissingPeerError (a ConfigError) naming the npm command when its packages are not installed. */
export async function loadTracing(env: Env, version: string): Promise<Tracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const { createOtelTracing } = await import('./otel-tracing.js');
  return importPeer(TRACING_PEERS, 'Tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => createOtelTracing(version));
}
