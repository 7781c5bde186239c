// Loaded first by main.ts, before Express, pg and node:http, so that the instrumentations can
// patch them. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; the standard OTEL_* variables
// configure the rest (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, …).
import { SERVICE_NAME } from './service-name';
import { maskingExporter } from './span-secrets';
import { UNTRACED_PATHS } from './untraced-paths';
import type { NodeSDK } from '@opentelemetry/sdk-node';

function startTracing(): NodeSDK | undefined {
  if (!process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] && !process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) {
    return undefined;
  }
  // Loaded only when on: without tracing, none of the SDK is in memory.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: process.env['OTEL_SERVICE_NAME'] ?? SERVICE_NAME,
    // Each span's credentials masked as the logs mask them (span-secrets.ts), on its way out.
    traceExporter: maskingExporter(new OTLPTraceExporter()),
    instrumentations: [
      // Each app names the paths it is polled on (src/untraced-paths.ts): no traces for them.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.includes(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}

const sdk = startTracing();

/** Sends the spans still batched (at shutdown); nothing when tracing is off. */
export async function flushTracing(): Promise<void> {
  await sdk?.shutdown();
}
