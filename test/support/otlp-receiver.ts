/**
 * An OTLP/HTTP endpoint of a test's own, on 127.0.0.1 port 0: it takes the
 * trace exports OpenTelemetry's HTTP exporter sends (JSON, gzipped or not),
 * keeps their raw text, and flattens their spans for the test to read.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as the test reads it: ids in hex, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number;
  /** The resource's attributes (`service.name`). */
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** e.g. `http://127.0.0.1:41234`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  /** Each export's body as received (decoded), in order. */
  bodies: string[];
  /** The paths the exports were sent to. */
  paths: string[];
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttributes;
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: { resource?: { attributes?: OtlpAttributes }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const plain = (attributes: OtlpAttributes): Record<string, string | number | boolean> =>
  Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? '')),
    ]),
  );

const bodyOf = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return (req.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
};

/** Starts the endpoint; every export is answered 200 with an empty JSON response, as a collector does. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      bodies.push(body);
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    paths,
    spans: () =>
      bodies.flatMap((body) =>
        (JSON.parse(body) as OtlpExport).resourceSpans.flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes: plain(s.attributes),
              status: s.status?.code ?? 0,
              resource: plain(rs.resource?.attributes),
            })),
          ),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
