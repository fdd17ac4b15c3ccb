// The common room's face: small tools every room may use.
export { approximateBytes } from './approximate-bytes';
export { startBackgroundLoop } from './background-loop';
export { crashPoint } from './crash-point';
export { jsonSchemaOf, plainJsonSchema, zodFromJsonSchema } from './json-schema-zod';
export { own } from './own';
export { describeIssue, firstIssue } from './zod-issue';
