// The canonical manifest (SPEC.md section 2, normative). Every source format is read
// into this shape; the CLI prints it and the API returns it.

export type SkillFormat = 'agent-skill' | 'skill-md' | 'code-skill' | 'malv' | 'rye';

export type Diagnostic = {
  /** an error fails validation and publishing; a warning fails under --strict; a note never does */
  severity: 'error' | 'warning' | 'note';
  code: string;
  message: string;
  file?: string;
  /** JSON pointer into the file's data, when the problem is in structured data */
  path?: string;
  line?: number;
};

export type SkillSignature = {
  timestamp: string;
  hash: string;
  signature: string;
  keyId: string;
  verified: boolean | null;
  reason?: string;
};

export type HandlerKind = 'js' | 'ts' | 'python' | 'bash' | 'inline-code' | 'markdown' | 'mcp' | 'none';

export type ToolManifest = {
  name: string;
  sourceName: string;
  description: string;
  role: 'main' | 'middleware' | 'context' | null;
  visibility: 'hidden' | null;
  tags: string[];
  params: Record<string, unknown> | null;
  returns: Record<string, unknown> | null;
  capabilities: string[];
  inputTokens: Record<string, { required: string[]; allowExpired: string[] }>;
  outputTokens: Record<string, { required: string[] }>;
  handler: { kind: HandlerKind; ref: string | null };
  executor: string | null;
  timeoutMs: number | null;
  /** calls the registry runs at publish (lib/evidence); absent when the source lists none */
  examples?: ToolExample[];
};

/** One example call of a tool: its arguments and, optionally, the result it must give. */
export type ToolExample = { arguments: Record<string, unknown>; expected?: unknown; name?: string };

export type SkillManifest = {
  name: string;
  description: string;
  format: SkillFormat;
  /**
   * Where the skill was read from: its package folder (or single file) as given to the
   * reader, e.g. `skills/pdf` or `bundle.zip!pdf`; '.' for the root of an upload.
   */
  source?: string;
  version: string | null;
  instructions: string | null;
  allowedTools: string | null;
  metadata: Record<string, unknown>;
  tools: ToolManifest[];
  files: string[];
  signature: SkillSignature | null;
  diagnostics: Diagnostic[];
  /**
   * Whether each agent (Claude Code, Codex, OpenClaw, Cursor, GitHub Copilot) loads the
   * skill, by its documented loader rules: apart from conformance to the format.
   */
  agents?: AgentVerdict[];
};

export type AgentVerdict = {
  agent: 'claude-code' | 'codex' | 'openclaw' | 'cursor' | 'copilot';
  label: string;
  loads: boolean;
  reasons: { rule: string; effect: 'blocks' | 'caveat'; message: string; doc: string }[];
};
