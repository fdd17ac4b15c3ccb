// OpenTelemetry's face (docs/observability.md): the run, model, tool and approval spans, the
// approval metrics, and whether telemetry is on. It imports the OpenTelemetry API and the config,
// nothing else of the project, so every floor may use it; the SDK is registered apart
// (register.ts), imported by server/boot only when telemetry is on.
export { countApprovalDecided, countApprovalOpened, observePendingApprovals, type ApprovalOutcome } from './approval-metrics';
export { recordApprovalSpan, type DecidedInterrupt } from './approval-span';
export { modelCallTelemetry } from './model-call-spans';
export { endRunSpan, startRunSpan, type RunFacts } from './run-span';
export { telemetryOn } from './telemetry-on';
export { inToolSpan, type ToolCallEnd } from './tool-span';
export { formatTraceparent } from './traceparent';
export { inSpan } from './tracer';
