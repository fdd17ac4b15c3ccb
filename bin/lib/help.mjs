// The CLI's help texts (docs/cli.md): `stackbone --help`, each group's and each command's.
import { DEFAULT_URL } from './http.mjs';
import { VERSION } from './version.mjs';

export const MAIN_HELP = `stackbone ${VERSION}: the command line for a Stackbone app

Usage:
  stackbone hitl list [--filter mine|key-holders|all] [--all | --cursor <cursor>] [--json]
  stackbone hitl approve <id> [--yes] [--edit '<json>'] [--payload '<json>'] [--json]
  stackbone hitl reject <id> [--yes] [--reason "<text>"] [--payload '<json>'] [--json]
  stackbone hitl cancel <id> [--yes] [--json]
  stackbone session stop <threadId> [--run <runId>] [--json]
  stackbone users list [--json]
  stackbone users role <email> <role> [--remove] [--json]
  stackbone export --decisions [--json]
  stackbone export --session <key>
  stackbone replay <session> [--against <agent>] [--json]
  stackbone conformance <agent-url> --prompt "<message>" [--header "Name: value"]... [--timeout <s>] [--json]
  stackbone receipt verify <file|-> [--jwks <url|file>] [--args '<json>'|@file] [--json]
  stackbone receipt key

Commands:
  hitl       decide pending human-in-the-loop interrupts (run 'stackbone hitl --help')
  session    stop the run in progress on a session (run 'stackbone session --help')
  users      the signed-up users and their roles; give or take a role (run 'stackbone users --help')
  export     the decisions you may see as JSONL, or a session's recording (run 'stackbone export --help')
  replay     re-run a recorded session against the current agent code and diff (run 'stackbone replay --help')
  conformance  check any AG-UI agent's human-in-the-loop round trip (run 'stackbone conformance --help')
  receipt    verify signed approval receipts offline; make a receipt signing key (run 'stackbone receipt --help')

Options:
  --url <url>        server URL (default: $STACKBONE_URL, else ${DEFAULT_URL})
  --api-key <key>    API key sent as a Bearer token (default: $STACKBONE_API_KEY)
  --json             print the server's JSON response (or {"error": …}) on stdout
  -h, --help         show help
  -v, --version      show the version

Exit codes: 0 done (for session stop, also when nothing was running; for replay, identical;
for conformance, every check passed), 1 refused by the server / server unreachable / not
confirmed / (replay) different / (conformance) a check failed, 2 usage error.
Docs: docs/cli.md, docs/replay.md, docs/conformance.md
`;

export const RECEIPT_HELP = `Usage:
  stackbone receipt verify <file|-> [--jwks <url|file>] [--args '<json>'|@file] [--json]
  stackbone receipt key

verify: checks each signed approval receipt in <file> (or stdin for -) — one JWS a line, the
receipts endpoint's {"receipts": […]}, or the decision export — against a key set: --jwks, a
saved copy of a server's /.well-known/jwks.json (offline) or its URL; default
<--url>/.well-known/jwks.json. With --args, also that the receipt approved exactly those
arguments (the SHA-256 of their RFC 8785 canonical JSON). Prints each receipt's claims.
Exit 0 when every receipt is valid, 1 when one is not (changed, signed by an unlisted key,
for other arguments), 2 usage error.

key: prints a new Ed25519 private JWK for STACKBONE_RECEIPT_KEY (one line).

Docs: docs/approvals.md, "Signed receipts"
`;

export const CONFORMANCE_HELP = `Usage: stackbone conformance <agent-url> --prompt "<message>" [options]

Drives any AG-UI endpoint as a client through a human-in-the-loop round trip and reports each
check as PASS or FAIL. <agent-url> is the URL a client POSTs RunAgentInput to; the prompt must
make the agent call a tool that waits for approval (e.g. "refund order ord_42 for 19.99" for
this app's support agent).

Checks, in order:
  interrupt              the prompt ends its run with an interrupt outcome, the tool not run
  reconnect              reopening the thread shows the same pending interrupt, twice
  message-while-paused   a new message on the paused thread is a RUN_ERROR on the stream
  unknown-interrupt      a resume for an unknown interrupt id is a RUN_ERROR on the stream
  approve                approving resumes the run; the tool's result appears exactly once
  resume-replay          the same resume sent again runs nothing
  reject                 on a fresh thread, rejecting finishes the run without running the
                         tool, and the call's result says it was rejected

Options:
  --prompt "<message>"        the message that triggers the gated tool (required)
  --header "Name: value"      a header sent with every request (repeatable), e.g. auth
  --api-key <key>             sent as Authorization: Bearer <key> (STACKBONE_API_KEY is not read)
  --timeout <seconds>         how long one run may take (default: 60)
  --reconnect <how>           auto (default): a run with no new message, then, if that is
                              refused, the paused run again with Last-Event-ID: -1;
                              reopen or rejoin: only that one
  --approve-payload '<json>'  the approval's resume payload (default: {"approved": true})
  --reject-payload '<json>'   the rejection's (default: {"approved": false, "reason": "…"})
  --json                      print the report as one JSON document
  -h, --help                  show help

Exit codes: 0 every check passed, 1 a check failed or was skipped, 2 usage error.
Docs: docs/conformance.md
`;

export const HITL_HELP = `Usage: stackbone hitl <command> [options]

Pending human-in-the-loop decisions (tool calls waiting for approval), across your sessions.

Commands:
  list                 the pending interrupts, yours first, a page at a time (--all: every page)
  approve <id>         approve the call (optionally with edited arguments or a payload)
  reject <id>          reject the call (the reason is shown to the model)
  cancel <id>          cancel the interrupt

Decision options:
  -y, --yes            decide without asking (required when stdin is not a terminal)
  --edit '<json>'      approve: replace the tool's arguments (the agent must allow edits)
  --payload '<json>'   approve/reject: data for the agent's approvalSchema
  --reason "<text>"    reject: why

Common options: --url <url>, --api-key <key>, --json, -h/--help.
Without --yes the call is shown and you are asked to confirm on the terminal.
`;

export const SESSION_HELP = `Usage: stackbone session <command> [options]

Sessions (AG-UI threads and the OpenAI/Anthropic sessions), by their thread id.

Commands:
  stop <threadId>      stop the run in progress (it ends as cancelled, keeping what it produced)

Options:
  --run <runId>        stop only this run (default: whichever run is in progress)

Common options: --url <url>, --api-key <key>, --json, -h/--help.
`;

export const USERS_HELP = `Usage: stackbone users <command> [options]

The people signed up to the app and their roles (docs/users-and-roles.md). An admin's: a user
with the admin role (their API key), or a service key from STACKBONE_API_KEYS.

Commands:
  list                   the users, newest first, with their roles
  role <email> <role>    give the user a role (approvals name roles: approvers: ['role:finance'])

Options:
  --remove               role: take the role instead

Common options: --url <url>, --api-key <key>, --json, -h/--help.
`;

export const USERS_COMMAND_HELP = {
  list: `Usage: stackbone users list [--json]

Lists the signed-up users (never guests): email, name and roles. With --json prints the
server's {"members": [...]} response.
`,
  role: `Usage: stackbone users role <email> <role> [--remove] [--json]

Gives the user with that address the role (letters, digits, "_", ".", "-"), or takes it with
--remove. The next decision they make counts it. With --json prints {"email", "roles"}.
`,
};

export const HITL_COMMAND_HELP = {
  list: `Usage: stackbone hitl list [--filter mine|key-holders|all] [--all | --cursor <cursor>] [--json]

Lists the pending interrupts as a table: id, agent, tool, message, age and expiry. Those of
your own sessions come first, then (for a key) the others kept for key holders, each newest
first. The server answers a page at a time; when there is more, the last line gives the
--cursor of the next page.

  --filter <which>     mine (your sessions' only), key-holders (the others' only), all (default)
  --all                follow every page and list them all
  --cursor <cursor>    the page that starts there (the nextCursor of the page before)

With --json prints the server's {"interrupts": [...], "nextCursor": ...} response (with --all,
every page's interrupts in one list and "nextCursor": null).
`,
  approve: `Usage: stackbone hitl approve <id> [--yes] [--edit '<json>'] [--payload '<json>'] [--json]

Approves the tool call. --edit replaces its arguments (a full JSON value; the agent must allow
edits), --payload is data for the agent's approvalSchema. Without --yes, shows the call and asks.
`,
  reject: `Usage: stackbone hitl reject <id> [--yes] [--reason "<text>"] [--payload '<json>'] [--json]

Rejects the tool call; the reason is shown to the model. Without --yes, shows the call and asks.
`,
  cancel: `Usage: stackbone hitl cancel <id> [--yes] [--json]

Cancels the interrupt. Without --yes, shows the call and asks.
`,
};

export const SESSION_COMMAND_HELP = {
  stop: `Usage: stackbone session stop <threadId> [--run <runId>] [--json] [--url <url>] [--api-key <key>]

Stops the run in progress on the session: the stop is recorded (as made by the CLI), and the
run ends as cancelled, keeping everything it produced up to the stop; calls it had not started
are closed as not run. --run stops only that run: when another run is in progress, it is
left alone. Nothing running is not an error: the command says so and exits 0.
With --json prints the server's {"threadId", "runId", "stopped", "reason"?, ...} response.
`,
};

export const TOP_HELP = {
  export: `Usage: stackbone export --decisions [--json]
       stackbone export --session <key>

--decisions   every decided interrupt your key may see (the inbox's scope), one JSON line each:
              session, agent, interruptId, toolName, argsAsked, argsRun, status, reason, by,
              votes, openedAt, decidedAt, latencyMs. With --json: one document {"decisions": [...]}.
--session     the session's recording: a header line, then its stored events, one per line
              (write it to tests/recordings/<name>.jsonl for expectReplay). Docs: docs/replay.md
`,
  replay: `Usage: stackbone replay <session> [--against <agent>] [--json]

Re-runs a recorded session on the server, on a scratch store: its user messages turn by turn,
each interrupt answered by the recorded decision of the same call, tools dry (their dryRun, else
the recorded result). Prints the calls added, removed or changed, approvals that changed,
decisions that no longer match, and whether the final answer changed.

--against <agent>   replay against another agent's definition (default: the session's own)

Exit codes: 0 identical, 1 different (or refused), 2 usage. Docs: docs/replay.md
`,
};
