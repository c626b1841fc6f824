// `allowed-tools` split into its entries: on whitespace outside parentheses, so that
// `agent(allowedTools=a b)` stays one entry; YAML arrays (joined or not) are accepted. The
// kernel parses each entry (lib/runtime/allowed-tools.ts); the permission summary lists them.
export function splitAllowedTools(spec: string | string[]): string[] {
  const text = (Array.isArray(spec) ? spec.join(' ') : spec).trim();
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
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
