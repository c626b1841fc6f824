// The one JSON nesting check, in its two forms: over a parsed value (manifests, YAML with
// aliases, run data) and over JSON text before it is parsed (request bodies). Both are
// iterative: the input may nest far deeper than the stack allows.

/** Whether `value` nests arrays and objects more than `maxDepth` levels below the top (safe on shared and cyclic references). */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Map<object, number>();
  let visits = 0;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > maxDepth) return true;
    const prev = seen.get(v);
    if (prev !== undefined && prev >= d) continue;
    seen.set(v, d);
    if (++visits > 1_000_000) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * Whether JSON text nests arrays and objects more than `limit` deep, scanned without
 * parsing (strings skipped), stopping as soon as it passes the limit.
 */
export function jsonTextExceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
