// What a conversation is made of, as the log keeps it: messages (a user's, the assistant's with
// its tool calls and reasoning, a tool's result), their attachments and the cited sources.
// Wire-neutral, like the events that carry them (events.ts).

export type JsonObject = Record<string, unknown>;

/**
 * A provider's own data about a part of its output — an Anthropic thinking signature, an OpenAI
 * reasoning item's id and encrypted content, a Gemini thought signature — keyed by provider, as
 * the AI SDK hands it over. Kept with the part and handed back to the model with it on the next
 * step; opaque to everything else (docs/internals/architecture.md, "Reasoning and provider metadata").
 */
export type ProviderMetadata = Record<string, JsonObject>;

export interface ToolCall {
  /** The model's tool call id; also the idempotency key handed to the tool. */
  id: string;
  name: string;
  input: unknown;
  /** What the provider said about the call; sent back with it (docs/internals/architecture.md, "Reasoning and provider metadata"). */
  providerMetadata?: ProviderMetadata;
}

/** One span of a model's reasoning. `id` names it in every stream: AG-UI's reasoning message id. */
export interface ReasoningPart {
  id: string;
  /** May be empty: a provider may keep its reasoning to itself and send only the metadata (encrypted or redacted). */
  text: string;
  providerMetadata?: ProviderMetadata;
}

/** A source the model cited (a web search's result), kept with its step. */
export interface SourcePart {
  id: string;
  url: string;
  title?: string;
  providerMetadata?: ProviderMetadata;
}

/**
 * A file a user sent with a message: a reference to the bytes, which live in attachment storage,
 * never in the log (docs/models.md, "Attachments"). `url` is the server's own
 * (`/api/agents/{name}/attachments/{id}`), served to the owner only.
 */
export interface Attachment {
  id: string;
  url: string;
  /** Sniffed from the bytes when stored, never the sender's word alone. */
  mediaType: string;
  filename: string;
  /** Bytes. */
  size: number;
}

export type ChatMessage =
  | { id: string; role: 'user'; content: string; attachments?: Attachment[] }
  | { id: string; role: 'system' | 'developer'; content: string }
  | {
      id: string;
      role: 'assistant';
      content: string;
      toolCalls?: ToolCall[];
      /** The step's reasoning, in the order it streamed; it came before the text and the calls. */
      reasoning?: ReasoningPart[];
      sources?: SourcePart[];
      /** What the provider said about the text (an OpenAI message item's id); sent back with it. */
      providerMetadata?: ProviderMetadata;
    }
  | { id: string; role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
export type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;
