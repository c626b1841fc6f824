// Permissions as facts in plain words, and the difference between two versions' facts:
// what a newer version adds (a widening, which `skillyard update` holds back without
// --yes) and what it drops. The page, the API and the CLI print these same sentences.
import type { PermissionSummary } from './permission-summary';

export type PermissionKind = 'capability' | 'network' | 'token-read' | 'token-mint' | 'connection' | 'secrets' | 'subprocess' | 'tool-call' | 'storage';

/** One thing a version may do: `{kind: 'network', value: 'api.example.com'}`. */
export type PermissionFact = { kind: PermissionKind; value: string; words: string };

const CAPABILITY_WORDS: Record<string, string> = {
  ai: 'asks the server’s model for completions (ai)',
  event: 'publishes and subscribes to events (event)',
  object: 'shows visual components in the trace (object)',
  token: 'checks and signs tokens (token)',
  net: 'fetches from the network (net)',
  tool: 'calls other tools (tool)',
  storage: 'keeps data between calls (storage)',
  environment: 'reads your workspace’s secrets (environment)',
};

function words(kind: PermissionKind, value: string): string {
  switch (kind) {
    case 'capability':
      return CAPABILITY_WORDS[value] ?? `uses the ${value} capability`;
    case 'network':
      return `network access to ${value}`;
    case 'token-read':
      return `uses tokens issued by ${value}`;
    case 'token-mint':
      return `mints tokens for ${value}`;
    case 'connection':
      return `uses your ${value.slice('@oauth/'.length)} account connection (${value})`;
    case 'secrets':
      return 'reads secrets of the workspace that runs it';
    case 'subprocess':
      return `runs ${value} scripts as subprocesses on the server`;
    case 'tool-call':
      return value === 'own scope' ? 'calls tools of its own scope' : `may call the tool ${value}`;
    case 'storage':
      return 'stores data per caller between calls';
  }
}

const fact = (kind: PermissionKind, value: string): PermissionFact => ({ kind, value, words: words(kind, value) });

/** The summary as a list of facts, in a stable order (the order of the summary's fields). */
export function permissionFacts(s: PermissionSummary): PermissionFact[] {
  // capabilities that a more specific fact already says are not repeated
  const said = new Set(['environment', 'storage', ...(s.network.length ? ['net'] : []), ...(s.tools.length ? ['tool'] : [])]);
  return [
    ...s.capabilities.filter((c) => !said.has(c)).map((c) => fact('capability', c)),
    ...s.network.map((h) => fact('network', h)),
    ...s.connections.map((c) => fact('connection', c)),
    ...(s.secrets ? [fact('secrets', 'workspace')] : []),
    ...s.tokensRead.map((t) => fact('token-read', t)),
    ...s.tokensMinted.map((t) => fact('token-mint', t)),
    ...s.subprocess.map((k) => fact('subprocess', k)),
    ...s.tools.map((t) => fact('tool-call', t)),
    ...(s.storage ? [fact('storage', 'per caller')] : []),
  ];
}

export type PermissionDiff = {
  added: PermissionFact[];
  removed: PermissionFact[];
  /** true when `added` is not empty: the newer version may do something the older may not */
  widens: boolean;
};

const key = (f: PermissionFact) => `${f.kind}\u0000${f.value}`;

export function diffPermissions(before: PermissionSummary, after: PermissionSummary): PermissionDiff {
  const a = permissionFacts(before);
  const b = permissionFacts(after);
  const had = new Set(a.map(key));
  const has = new Set(b.map(key));
  const added = b.filter((f) => !had.has(key(f)));
  const removed = a.filter((f) => !has.has(key(f)));
  return { added, removed, widens: added.length > 0 };
}

/** "1.3.0 adds network access to api.example.com" lines, then "drops" lines. */
export function diffSentences(diff: PermissionDiff, version: string): string[] {
  return [...diff.added.map((f) => `${version} adds ${f.words}`), ...diff.removed.map((f) => `${version} drops ${f.words}`)];
}
