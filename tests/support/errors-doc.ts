// docs/errors.md, rendered from the table it documents (server/error-codes.ts) and the two chat
// wires' own type rules, so the page cannot say what the server does not answer:
// tests/unit/error-codes.test.ts fails when the file drifts (`-u` rewrites it).
import { ERROR_GROUPS, NOT_FOUND, chatCode, type ErrorAnswer, type ErrorCode, type NotFoundWhat } from '../../server/error-codes';
import { anthropicErrorType } from '../../server/wire/anthropic/errors';
import { openAiErrorBody } from '../../server/wire/openai/errors';

const INTRO = `# Errors

<!-- Rendered from server/error-codes.ts by tests/unit/error-codes.test.ts: edit the table there, then run
     \`npx vitest run --project unit tests/unit/error-codes.test.ts -u\`. -->

Every error the server answers has one code from one table, \`server/error-codes.ts\`: its HTTP
status, how the AG-UI run request answers it, and the code the OpenAI and Anthropic wires answer
where their clients expect their own. The runtime's \`Refusal\` (a request it refuses, having
written nothing) and the transport's \`HttpError\` take a code from it, never a free string, and
their status from it, never a literal.

- **HTTP**: \`{"error": {"code", "message", …details}}\` with the status (every route but the
  chat wires, which answer in their API's own shape: [wires.md](wires.md#errors)).
- **AG-UI run** (\`POST /api/agents/{name}\`): \`RUN_ERROR\` is an event after \`RUN_STARTED\` with
  the code and \`metadata\` = the details (nothing was written, or the run ended there); \`HTTP\`
  is the JSON answer above, before any stream. The other AG-UI routes (\`/stop\`, \`/steer\`,
  \`/queue\`, \`/state\`, \`/decide\`) answer every code over HTTP.
- **OpenAI / Anthropic**: the public code (OpenAI \`error.code\`, Anthropic
  \`details.error_code\`), then OpenAI's \`error.type\` / Anthropic's \`error.type\`, both from the status.
`;

const GROUPS: Record<keyof typeof ERROR_GROUPS, string> = {
  request: 'The request, refused before the runtime sees it',
  refusal: 'Refusals of the runtime: nothing was written',
  run: 'A run that started, and failed',
};

function chatColumn(code: ErrorCode, status: number, what?: NotFoundWhat): string {
  const publicCode = chatCode(code, what ? { what } : undefined);
  const openAiType = openAiErrorBody({ status, code: publicCode, message: '', param: null, retryable: false }).error.type;
  return `\`${publicCode}\` · \`${openAiType}\` / \`${anthropicErrorType(status)}\``;
}

function row(code: ErrorCode, answer: ErrorAnswer): string {
  return `| \`${code}\` | ${answer.status} | ${answer.agUi} | ${chatColumn(code, answer.status)} | ${answer.when} |`;
}

export function renderErrorsDoc(): string {
  const header = '| code | status | AG-UI run | OpenAI / Anthropic | when |\n| --- | --- | --- | --- | --- |';
  const groups = Object.entries(ERROR_GROUPS).map(([group, codes]) => {
    const rows = Object.entries(codes).map(([code, answer]) => row(code as ErrorCode, answer));
    return `## ${GROUPS[group as keyof typeof ERROR_GROUPS]}\n\n${header}\n${rows.join('\n')}\n`;
  });
  const notFound = Object.entries(NOT_FOUND).map(([what, answer]) => {
    const agUi = 'agUi' in answer ? answer.agUi : ERROR_GROUPS.request.not_found.agUi;
    return `| \`${what}\` | ${agUi} | ${chatColumn('not_found', 404, what as NotFoundWhat)} | ${answer.when} |`;
  });
  const notFoundSection = [
    '## `not_found`: what was not found',
    '',
    'One code for everything not found; `details.what` (AG-UI `metadata.what`) says what, and where',
    'the answer differs from the row of `not_found`. The chat wires answer the public code instead',
    '(they leave `what` out: the code says it).',
    '',
    '| what | AG-UI run | OpenAI / Anthropic | when |',
    '| --- | --- | --- | --- |',
    ...notFound,
    '',
  ].join('\n');
  return [INTRO, ...groups, notFoundSection].join('\n');
}
