// What a version's code did when the registry ran it after the publish: per tool, each
// example's outcome against its expected result and everything the code attempted.
// Stored as JSON on VersionEvidence and served as is by the API (docs/trust.md).

/** Where a call came from: `example` (the tool's own list), `schema` (JSON Schema `examples` of its params), `smoke` (sampled from the schema). */
export type ExampleSource = 'example' | 'schema' | 'smoke';

/**
 * passed: the result equals the expected one; failed: it differs (or the call threw while
 * a result was expected); ran: no expected result to compare with; error: it threw;
 * stopped: the sandbox stopped it at its time or memory bound.
 */
export type ExampleOutcome = 'passed' | 'failed' | 'ran' | 'error' | 'stopped';

export type AttemptKind = 'net' | 'storage' | 'tool' | 'token' | 'secret' | 'event' | 'ai' | 'object' | 'capability';

/** A line of the package's source: where an attempt was made. */
export type SourceLine = { file: string; line: number; text: string };

export type Attempt = {
  kind: AttemptKind;
  /** the host method (`net_fetch`, `storage_put`...) or `capability` for one the tool never declared */
  method: string;
  /** the host (net), the key (storage), the tool ref, the secret's name... */
  target: string;
  /** within what the version declares (its capabilities and metadata.net.hosts) */
  declared: boolean;
  /** answered with a refusal (every network request is) */
  refused: boolean;
  /** the line of code that made it: set for every attempt outside the declared permissions */
  where?: SourceLine;
};

export type ExampleEvidence = {
  label: string;
  source: ExampleSource;
  arguments: unknown;
  /** absent: the example gave no expected result */
  expected?: unknown;
  outcome: ExampleOutcome;
  /** the result (cut to a few KB of JSON) */
  result?: unknown;
  error?: { code: string; message: string };
  durationMs: number;
  attempts: Attempt[];
};

export type ToolEvidence = {
  tool: string;
  handler: string;
  /** why the tool was not run (markdown instructions, a subprocess handler...) */
  skipped?: string;
  examples: ExampleEvidence[];
};

export type Evidence = {
  version: 1;
  ranAt: string;
  durationMs: number;
  limits: { wallMs: number; memoryMb: number };
  /** attempts outside the declared permissions, over all tools */
  flagged: number;
  tools: ToolEvidence[];
};
