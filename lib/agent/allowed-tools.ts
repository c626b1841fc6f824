// The agent's reading of an `allowed-tools` spec: space-delimited globs with optional
// specifiers `tool-name(key=value,$deny)`. `key=value` constrains an argument (value is
// a glob over the argument's string form); `$deny` turns the entry into a denial.
// The runtime's pipeline enforces the same spec again on every call; the agent uses it
// to decide what it documents and what agent code may reach.

export type AllowedEntry = {
  pattern: string;
  name: RegExp;
  constraints: Array<{ key: string; value: RegExp }>;
  deny: boolean;
};

export type AllowedSpec = { entries: AllowedEntry[]; hasBareStar: boolean };

const GLOB_CHARS = /[*?]/;

function globToRegExp(glob: string): RegExp {
  const src = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${src}$`);
}

export function parseAllowedTools(spec: string | null | undefined): AllowedSpec | null {
  if (spec == null || spec.trim() === '') return null;
  const entries: AllowedEntry[] = [];
  const re = /([^\s(]+)(?:\(([^)]*)\))?/g;
  for (const m of spec.matchAll(re)) {
    const pattern = m[1].replace(/,+$/, '');
    if (!pattern) continue;
    const constraints: AllowedEntry['constraints'] = [];
    let deny = false;
    for (const part of (m[2] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (part === '$deny') deny = true;
      else {
        const eq = part.indexOf('=');
        if (eq > 0) constraints.push({ key: part.slice(0, eq).trim(), value: globToRegExp(part.slice(eq + 1).trim()) });
      }
    }
    entries.push({ pattern, name: globToRegExp(pattern), constraints, deny });
  }
  return { entries, hasBareStar: entries.some((e) => e.pattern === '*' && !e.deny && e.constraints.length === 0) };
}

/** Named without any glob character, in an entry that grants. */
export function isExplicitlyNamed(spec: AllowedSpec | null, tool: string): boolean {
  return !!spec?.entries.some((e) => !e.deny && !GLOB_CHARS.test(e.pattern) && e.pattern === tool);
}

/** May this tool appear at all (some grant matches it, no unconditional denial does)? */
export function matchesToolName(spec: AllowedSpec | null, tool: string): boolean {
  if (!spec) return true;
  if (spec.entries.some((e) => e.deny && e.constraints.length === 0 && e.name.test(tool))) return false;
  return spec.entries.some((e) => !e.deny && e.name.test(tool));
}

function constraintsHold(e: AllowedEntry, args: unknown): boolean {
  const obj = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  return e.constraints.every((c) => {
    const v = obj[c.key];
    if (v === undefined) return false;
    return c.value.test(typeof v === 'string' ? v : JSON.stringify(v));
  });
}

/** Is this call allowed? Returns null when it is, or the reason when it is not. */
export function checkToolCall(spec: AllowedSpec | null, tool: string, args: unknown): string | null {
  if (!spec) return null;
  const denial = spec.entries.find((e) => e.deny && e.name.test(tool) && constraintsHold(e, args));
  if (denial) return `denied by allowed-tools entry "${denial.pattern}"`;
  const grants = spec.entries.filter((e) => !e.deny && e.name.test(tool));
  if (grants.length === 0) return 'not in allowed-tools';
  if (grants.some((e) => constraintsHold(e, args))) return null;
  return `arguments do not match allowed-tools (${grants.map((g) => g.pattern).join(', ')} constrain them)`;
}
