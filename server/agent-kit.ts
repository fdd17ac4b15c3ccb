// Everything an agent file needs, in one place (README, "Add an agent"): an agent in server/agents/
// imports from here and from zod, and from nothing else of the app (lint: eslint.config.mjs), so
// what an agent may rely on is this list, and the app's insides may change under it.

/** The AI SDK's tool(): a tool's title, description, zod inputSchema and execute. */
export { tool } from 'ai';
/** An agent from plain data and tools, checked when it is defined (server/authoring/define.ts). */
export { defineDeepAgent } from './authoring';
/** This app's own origin, for a URL the agent reaches on its own server (an MCP endpoint it serves). */
export { ownOrigin } from './config/own-origin';
/** Inside a tool's execute: the call (`event`), `idempotencyKey`, `attempt`, `session`, `signal` and the shared `state` to change. */
export { handlerContext } from './runtime';
/** A tool's contract with the agent it runs in: `handlerContext(contract)` checks the agent and types `state`. */
export { agentContract } from './runtime';
/** Inside a tool's execute: ask the person a question and wait for the validated answer. */
export { requestInput } from './runtime';
/** Thrown by a tool: a message shown as it is to the model and the person (other errors are not). */
export { ToolError } from './runtime';
/** A user message for `session.schedule(…)` or a server append, e.g. a reminder coming back. */
export { userMessage } from './runtime';
/** The app's own tables (docs/database.md, "Add a table"): runs work with their Prisma client; keep it short. */
export { withAppDatabase } from './store/app-database';

/** What a tool call needs before it runs: 'approved', 'user-approval' or 'denied'. */
export type { ApprovalPolicy } from './authoring';
/** Who may decide a gated call: the session's owner, key holders, or `key:<name>` entries. */
export type { Approvers } from './authoring';
/** An agent as defineDeepAgent returns it: what server/agents/index.ts lists. */
export type { DeepAgent } from './authoring';
/** Everything defineDeepAgent takes: name, model, instructions, tools, toolApproval, offline… */
export type { DeepAgentConfig } from './authoring';
/** A state key a client may write (`editableState`): a zod schema or a JSON Schema. */
export type { EditableStateSpec } from './authoring';
/** What dynamic instructions read at each model step: the session's state and who it is. */
export type { InstructionsContext } from './authoring';
/** Instructions worked out at each model step from the session's state. */
export type { InstructionsFunction } from './authoring';
/** An MCP server whose tools the agent uses as its own (`mcpServers`). */
export type { McpServerSpec } from './authoring';
/** A policy worked out from the call's input (it must be deterministic). */
export type { PolicyFunction } from './authoring';
/** A tool's approval: its policy and options (describe, allowEdit, ttl, approvers, quorum…). */
export type { ToolApprovalOptions } from './authoring';
/** What a tool's `context()` looks up for the approver: facts as label and value, and a risk note. */
export type { ApprovalFacts } from './store/pauses';
/** A policy, a policy function or the full options: one entry of `toolApproval`. */
export type { ToolApprovalSpec } from './authoring';
/** The session's shared state (`initialState`, `handlerContext().state`): a JSON object. */
export type { JsonObject } from './store/messages';
/** A sentence the offline scripted model understands for the agent, and the call it makes (`offline.phrases`). */
export type { OfflinePhrase } from './authoring/offline-phrases';
