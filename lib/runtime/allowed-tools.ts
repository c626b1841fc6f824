// `allowed-tools`: space-delimited glob patterns with optional specifiers,
// `tool-name(key=value,...)` (allowed only when each arg matches its glob) and
// `tool-name(key=value,$deny)` (refused when they match; `$deny` alone refuses the tool).
// A deny always wins; when any allow entry exists, a call must match one of them.

import { pathGet } from './schema';

export type AllowedToolsCondition = { key: string; value: string };
export type AllowedToolsEntry = { pattern: string; conditions: AllowedToolsCondition[]; deny: boolean; source: string };
export type AllowedToolsSpec = { entries: AllowedToolsEntry[]; source: string };

/** Splits on whitespace outside parentheses; YAML arrays (already joined or not) are accepted. */
function splitEntries(spec: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of spec) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (/\s/.test(ch) && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

export function parseAllowedTools(spec: string | string[] | null | undefined): AllowedToolsSpec | null {
  if (spec === null || spec === undefined) return null;
  const text = Array.isArray(spec) ? spec.join(' ') : spec;
  const entries: AllowedToolsEntry[] = [];
  for (const raw of splitEntries(text.trim())) {
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

const globCache = new Map<string, RegExp>();
export function globToRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (!re) {
    const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    re = new RegExp(`^${body}$`);
    globCache.set(glob, re);
  }
  return re;
}

export function globMatch(glob: string, value: string): boolean {
  return globToRegExp(glob).test(value);
}

function nameMatches(entry: AllowedToolsEntry, names: string[]): boolean {
  return names.some((n) => globMatch(entry.pattern, n));
}

function conditionsMatch(entry: AllowedToolsEntry, args: unknown): boolean {
  return entry.conditions.every(({ key, value }) => {
    const actual = pathGet(args, key);
    if (actual === undefined || actual === null || typeof actual === 'object') return false;
    return globMatch(value, String(actual));
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
