import type { AgentVerdict } from '../types';

export type { AgentVerdict };

// "Will it load?": what each agent's documented loader rules say about a skill, kept apart
// from conformance to the skill's format. One table of rules per agent (its own file),
// each rule citing the agent's documentation.

/** What the loaders look at, read from the skill's files (never from the manifest's fallbacks). */
export type LoaderFacts = {
  /** 'agent-skill' for a SKILL.md folder; any other format is not an Agent Skills folder */
  format: string;
  /** the skill file as found: SKILL.md, or a case variant (skill.md, Skill.md) */
  marker: string | null;
  /** the skill's folder name, when known */
  dirName: string | null;
  /** the skill folder was reached through a symbolic link */
  viaSymlink: boolean;
  /** opening and closing `---` lines: 'ok', 'indented' closing fence, 'unterminated', or 'none' */
  fence: 'ok' | 'indented' | 'unterminated' | 'none';
  /** the frontmatter parses as YAML into a mapping */
  yamlOk: boolean;
  /** frontmatter values as written (undefined when absent) */
  name: unknown;
  description: unknown;
  shortDescription: unknown;
  /** top-level keys whose value spans more than one line (block scalars, nested mappings) */
  multilineKeys: string[];
  /** metadata is present and not written as one line of JSON */
  metadataMultiline: boolean;
  /** the body has a first paragraph (Claude Code's fallback description) */
  hasBodyText: boolean;
};

export type AgentId = AgentVerdict['agent'];

export type AgentRule = {
  /** stable id, `<agent>/<rule>` */
  id: string;
  /** what the loader requires, in a line */
  rule: string;
  /** the documentation (or loader source) that says so */
  doc: string;
  /** 'blocks': the skill is not loaded when broken; 'caveat': it loads, but not as written */
  effect: 'blocks' | 'caveat';
  /** null when the skill passes, else why not (one sentence) */
  check(f: LoaderFacts): string | null;
};

export type AgentTable = { agent: AgentId; label: string; rules: AgentRule[] };

/** Length in Unicode code points after collapsing whitespace, as Rust's `chars().count()` after `split_whitespace` counts it. */
export function singleLineLength(s: string): number {
  return [...s.split(/\s+/).filter(Boolean).join(' ')].length;
}
