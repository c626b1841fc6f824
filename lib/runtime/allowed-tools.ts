// `allowed-tools`: space-delimited glob patterns with optional specifiers,
// `tool-name(key=value,...)` (allowed only when each arg matches its glob) and
// `tool-name(key=value,$deny)` (refused when they match; `$deny` alone refuses the tool).
// A deny always wins; when any allow entry exists, a call must match one of them.

import { splitAllowedTools } from '../skills';
import { pathGet } from './schema';

export type AllowedToolsCondition = { key: string; value: string };
export type AllowedToolsEntry = { pattern: string; conditions: AllowedToolsCondition[]; deny: boolean; source: string };
export type AllowedToolsSpec = { entries: AllowedToolsEntry[]; source: string };

export function parseAllowedTools(spec: string | string[] | null | undefined): AllowedToolsSpec | null {
  if (spec === null || spec === undefined) return null;
  const text = Array.isArray(spec) ? spec.join(' ') : spec;
  const entries: AllowedToolsEntry[] = [];
  for (const raw of splitAllowedTools(text)) {
    const open = raw.indexOf('(');
    if (open < 0 || !raw.endsWith(')')) {
      entries.push({ pattern: raw, conditions: [], deny: false, source: raw });
      continue;
    }
    const pattern = raw.slice(0, open);
    const conditions: AllowedToolsCondition[] = [];
    let deny = false;
    for (const item of raw.slice(open + 1, -1).split(',')) {
      const part = item.trim();
      if (!part) continue;
      if (part === '$deny') deny = true;
      else {
        const eq = part.indexOf('=');
        // Foreign specifiers (Claude's `Bash(git:*)`) constrain nothing we can check: keep the name match only.
        if (eq > 0) conditions.push({ key: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() });
      }
    }
    entries.push({ pattern, conditions, deny, source: raw });
  }
  return { entries, source: text };
}

/** Longest glob (tool name or argument pattern) that can match; a longer one never allows and always denies. */
export const MAX_GLOB_LENGTH = 256;
/** Longest argument value a condition compares; a longer one never allows and always denies. */
export const MAX_MATCH_VALUE_LENGTH = 64 * 1024;

type Steps = { n: number };

function pieceAt(piece: string, value: string, at: number, steps: Steps): boolean {
  for (let i = 0; i < piece.length; i++) {
    steps.n++;
    const p = piece.charCodeAt(i);
    if (p !== 63 /* ? */ && p !== value.charCodeAt(at + i)) return false;
  }
  return true;
}

/** Leftmost index >= from where `piece` matches and ends by `end`, or -1. */
function findPiece(piece: string, value: string, from: number, end: number, steps: Steps): number {
  if (!piece.includes('?')) {
    const at = value.indexOf(piece, from);
    steps.n += (at < 0 ? end : at) - from + piece.length;
    return at >= 0 && at + piece.length <= end ? at : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (pieceAt(piece, value, at, steps)) return at;
  return -1;
}

/**
 * `*` (any run, newlines included) and `?` (one UTF-16 unit) without a regular expression:
 * the glob is cut at each `*`; the first piece must match at the start, the last at the
 * end, every middle piece at its leftmost place after the one before (leftmost is always
 * safe for `*`-globs, so nothing is ever retried). At most value × glob steps, and both
 * are bounded, unlike a backtracking RegExp (`*a*a*a*a*b` took minutes on the web process).
 */
export function globMatchSteps(glob: string, value: string): { match: boolean; steps: number } {
  const steps: Steps = { n: 0 };
  const result = (match: boolean) => ({ match, steps: steps.n });
  if (glob.length > MAX_GLOB_LENGTH || value.length > MAX_MATCH_VALUE_LENGTH) return result(false);
  const pieces = glob.split('*');
  if (pieces.length === 1) return result(glob.length === value.length && pieceAt(glob, value, 0, steps));
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (first.length + last.length > value.length) return result(false);
  if (!pieceAt(first, value, 0, steps) || !pieceAt(last, value, value.length - last.length, steps)) return result(false);
  const end = value.length - last.length;
  let pos = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (!piece) continue;
    const at = findPiece(piece, value, pos, end, steps);
    if (at < 0) return result(false);
    pos = at + piece.length;
  }
  return result(true);
}

export function globMatch(glob: string, value: string): boolean {
  return globMatchSteps(glob, value).match;
}

/** A pattern or value past the limits refuses: an allow entry never matches it, a deny entry always does. */
const tooLong = (glob: string, value?: string) => glob.length > MAX_GLOB_LENGTH || (value !== undefined && value.length > MAX_MATCH_VALUE_LENGTH);

function nameMatches(entry: AllowedToolsEntry, names: string[]): boolean {
  return names.some((n) => (tooLong(entry.pattern, n) ? entry.deny : globMatch(entry.pattern, n)));
}

function conditionsMatch(entry: AllowedToolsEntry, args: unknown): boolean {
  return entry.conditions.every(({ key, value }) => {
    const actual = pathGet(args, key);
    if (actual === undefined || actual === null || typeof actual === 'object') return false;
    const text = String(actual);
    return tooLong(value, text) ? entry.deny : globMatch(value, text);
  });
}

export type AllowedToolsDecision = { allowed: true } | { allowed: false; reason: string };

/** `names`: the ways the target can be written (bare name and `skill/tool`). */
export function checkAllowedTools(spec: AllowedToolsSpec | null, names: string[], args: unknown): AllowedToolsDecision {
  if (!spec) return { allowed: true };
  for (const entry of spec.entries) {
    if (entry.deny && nameMatches(entry, names) && conditionsMatch(entry, args)) {
      return { allowed: false, reason: `denied by '${entry.source}'` };
    }
  }
  const allows = spec.entries.filter((e) => !e.deny);
  if (allows.length === 0) return { allowed: true };
  const byName = allows.filter((e) => nameMatches(e, names));
  if (byName.some((e) => conditionsMatch(e, args))) return { allowed: true };
  if (byName.length > 0) {
    return { allowed: false, reason: `arguments do not match ${byName.map((e) => `'${e.source}'`).join(' or ')}` };
  }
  return { allowed: false, reason: `not in allowed-tools '${spec.source}'` };
}

/** Whether the tool could be called at all under this spec (for listings: ignores argument conditions). */
export function mayListTool(spec: AllowedToolsSpec | null, names: string[]): boolean {
  if (!spec) return true;
  if (spec.entries.some((e) => e.deny && e.conditions.length === 0 && nameMatches(e, names))) return false;
  const allows = spec.entries.filter((e) => !e.deny);
  return allows.length === 0 || allows.some((e) => nameMatches(e, names));
}
