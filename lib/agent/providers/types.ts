// The model-provider interface: one model round trip (a "turn") in a provider-neutral
// shape. Each backend (OpenAI-compatible, Anthropic, manual, scripted) implements it;
// the LLM loop (provider-loop.ts) and the policy (run-agent.ts) never see wire formats.

export type ToolCall = {
  id: string;
  name: string;
  /** parsed JSON arguments; when the model sent invalid JSON, `{ __raw: string }` */
  input: unknown;
};

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export type ToolSpec = {
  name: string;
  description: string;
  /** JSON Schema, type object */
  parameters: Record<string, unknown>;
};

export type RetryInfo = {
  attempt: number;
  delayMs: number;
  reason: string;
  status: number | null;
  /** true when part of the response had already streamed before the failure */
  partial: boolean;
};

export type ModelRequest = {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  turnNumber: number;
  signal: AbortSignal;
  /** streamed text, called as chunks arrive */
  onText?: (delta: string) => void | Promise<void>;
  /** streamed chain-of-thought, when the model exposes it */
  onReasoning?: (delta: string) => void | Promise<void>;
  /** a transient failure that the provider is about to retry */
  onRetry?: (info: RetryInfo) => void | Promise<void>;
};

export type Usage = { inputTokens: number; outputTokens: number };

export type ModelTurn = {
  text: string;
  toolCalls: ToolCall[];
  stopReason: string | null;
  usage: Usage | null;
  /** true when `onText` received the text as it arrived */
  streamed: boolean;
};

export interface ModelProvider {
  /** 'openai' | 'anthropic' | 'manual' | 'scripted' | ... ; put on every event and result */
  readonly name: string;
  readonly model: string | null;
  complete(req: ModelRequest): Promise<ModelTurn>;
}

export type RetryOptions = {
  /** total attempts, first one included (default 4) */
  maxAttempts?: number;
  /** first backoff delay (default 500 ms), doubled each attempt */
  baseMs?: number;
  /** backoff cap, also applied to retry-after (default 30 s) */
  capMs?: number;
};

export type HttpProviderOptions = {
  model: string;
  apiKey?: string | null;
  baseUrl?: string;
  temperature?: number;
  maxTokens?: number;
  /** extra JSON merged into each request body (provider-specific knobs) */
  extraBody?: Record<string, unknown>;
  /** extra request headers (never logged) */
  headers?: Record<string, string>;
  retry?: RetryOptions;
  /** for tests: replaces the backoff wait */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  fetch?: typeof fetch;
};
