// YAML with the hostile-input guards: alias expansion budget (alias bombs), nesting
// depth, and a pointer -> line map built from the document's node ranges.

import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { ptr, type LineMap } from './diagnostic-sink';
import { LocatedParseError } from './located-json';

export type LocatedYaml = { value: unknown; lines: LineMap; warnings: { message: string; line: number }[] };

export function parseYamlLocated(text: string, opts: { maxAliasCount: number; maxDepth: number }): LocatedYaml {
  const lineCounter = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    throw new LocatedParseError(`YAML could not be parsed: ${(e as Error).message}`, 1, e instanceof RangeError ? 'depth' : 'syntax');
  }
  const lineAt = (pos: number | undefined) => (pos === undefined ? 1 : lineCounter.linePos(pos).line);
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    throw new LocatedParseError(err.message.split('\n')[0], lineAt(err.pos?.[0]));
  }
  const lines: LineMap = new Map();
  // Walk nodes (not values) for lines, and check depth before converting to JS.
  const walk = (node: unknown, pointer: string, depth: number) => {
    if (depth > opts.maxDepth) throw new LocatedParseError(`nesting deeper than ${opts.maxDepth} levels`, lineAt((node as Node).range?.[0]), 'depth');
    if (isMap(node)) {
      lines.set(pointer, lineAt(node.range?.[0]));
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const key = isScalar(item.key) ? String(item.key.value) : String(item.key);
        const p = ptr(pointer, key);
        lines.set(p, lineAt((item.key as Node | null)?.range?.[0]));
        walk(item.value, p, depth + 1);
      }
    } else if (isSeq(node)) {
      lines.set(pointer, lineAt(node.range?.[0]));
      node.items.forEach((it, idx) => {
        const p = ptr(pointer, idx);
        lines.set(p, lineAt((it as Node | null)?.range?.[0]));
        walk(it, p, depth + 1);
      });
    } else if (isScalar(node) || isAlias(node)) {
      if (!lines.has(pointer)) lines.set(pointer, lineAt(node.range?.[0]));
    }
  };
  try {
    walk(doc.contents, '', 0);
  } catch (e) {
    if (e instanceof LocatedParseError) throw e;
    throw new LocatedParseError(`YAML too deeply nested`, 1, 'depth');
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: opts.maxAliasCount });
  } catch (e) {
    const msg = (e as Error).message;
    if (/alias/i.test(msg)) throw new LocatedParseError(`YAML alias expansion exceeds the limit (${opts.maxAliasCount}): ${msg}`, 1, 'depth');
    throw new LocatedParseError(`YAML could not be converted: ${msg}`, 1);
  }
  // Aliases can still build deep values out of shallow nodes.
  if (exceedsDepth(value, opts.maxDepth)) throw new LocatedParseError(`nesting deeper than ${opts.maxDepth} levels (through aliases)`, 1, 'depth');
  const warnings = doc.warnings.map((w) => ({ message: w.message.split('\n')[0], line: lineAt(w.pos?.[0]) }));
  return { value, lines, warnings };
}

/** Iterative depth check that is safe on shared and cyclic references. */
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
