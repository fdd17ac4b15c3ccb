// An OpenTelemetry collector in the test's own process: an OTLP/HTTP endpoint (JSON encoding)
// that keeps every span and metric data point a server sends it, flattened for assertions
// (docs/observability.md). Traces must be sent as http/json (OTEL_EXPORTER_OTLP_PROTOCOL); the
// metric exporter sends JSON always.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };
type KeyValue = { key: string; value: AnyValue };
type Attributes = Record<string, unknown>;

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  links: { traceId: string; spanId: string; attributes: Attributes }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  /** The resource of the process that sent it. */
  resource: Attributes;
}

export interface ReceivedPoint {
  metric: string;
  attributes: Attributes;
  /** A sum's or gauge's value; a histogram's count and sum. */
  value?: number;
  count?: number;
  sum?: number;
  /** When the receiver got it (ms since the epoch). */
  receivedAt: number;
}

function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

const attributesOf = (list: KeyValue[] | undefined): Attributes => Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
const nanosToMs = (nanos: string | number) => Number(BigInt(nanos) / 1_000_000n);

interface SpanJson {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValue[];
  links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
  status?: { code?: number; message?: string };
}

interface PointJson {
  attributes?: KeyValue[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
  sum?: number;
}

interface MetricJson {
  name: string;
  sum?: { dataPoints?: PointJson[] };
  gauge?: { dataPoints?: PointJson[] };
  histogram?: { dataPoints?: PointJson[] };
}

export interface OtlpReceiver {
  /** The base URL to set as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body || '{}');
      if (request.url === '/v1/traces') {
        for (const resourceSpans of parsed.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of (scope.spans ?? []) as SpanJson[]) {
              spans.push({
                name: span.name,
                traceId: span.traceId,
                spanId: span.spanId,
                ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
                kind: span.kind,
                startMs: nanosToMs(span.startTimeUnixNano),
                endMs: nanosToMs(span.endTimeUnixNano),
                attributes: attributesOf(span.attributes),
                links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId, attributes: attributesOf(link.attributes) })),
                status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
                resource,
              });
            }
          }
        }
      } else if (request.url === '/v1/metrics') {
        const receivedAt = Date.now();
        for (const resourceMetrics of parsed.resourceMetrics ?? []) {
          for (const scope of resourceMetrics.scopeMetrics ?? []) {
            for (const metric of (scope.metrics ?? []) as MetricJson[]) {
              for (const point of [...(metric.sum?.dataPoints ?? []), ...(metric.gauge?.dataPoints ?? [])]) {
                points.push({ metric: metric.name, attributes: attributesOf(point.attributes), value: Number(point.asInt ?? point.asDouble), receivedAt });
              }
              for (const point of metric.histogram?.dataPoints ?? []) {
                points.push({ metric: metric.name, attributes: attributesOf(point.attributes), count: Number(point.count), sum: point.sum ?? 0, receivedAt });
              }
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
