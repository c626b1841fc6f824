// YAML with the hostile-input guards: alias expansion budget (alias bombs), nesting
// depth, and a pointer -> line map built from the document's node ranges. Quoted
// scalars that continue on unindented lines (accepted by the YAML 1.1 parsers agents
// use, PyYAML and js-yaml) are re-indented and read, with a warning.

import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { ptr, type LineMap } from './diagnostic-sink';
import { LocatedParseError } from './located-json';
import { exceedsDepth } from './depth';

export { exceedsDepth };

export type YamlWarning = { message: string; line: number; code?: 'yaml/quoted-multiline' | 'yaml/unquoted-colon' | 'yaml/key-not-scalar' };
export type LocatedYaml = { value: unknown; lines: LineMap; warnings: YamlWarning[] };

/** A parse error that still carries what could be read (for checks independent of the error). */
export class YamlParseError extends LocatedParseError {
  constructor(
    message: string,
    line: number,
    code: 'syntax' | 'depth',
    /** the value yaml recovered around the error, when it is a mapping */
    readonly partial: Record<string, unknown> | null = null,
  ) {
    super(message, line, code);
  }
}

type Opts = {
  maxAliasCount: number;
  maxDepth: number;
  /**
   * read a plain value holding ": " whole (`yaml/unquoted-colon`); default true. Off for
   * Rye, whose loader (PyYAML) refuses such a value: leniency there would pass a tool
   * that does not load.
   */
  unquotedColons?: boolean;
};

/** At most this many values are repaired, one parse each (the parser reports one such error at a time). */
const MAX_COLON_REPAIRS = 32;

export function parseYamlLocated(text: string, opts: Opts): LocatedYaml {
  const first = parseOnce(text);
  if (first.doc.errors.length > 0 && first.doc.errors.some((e) => e.code === 'MISSING_CHAR' && /closing .?quote/i.test(e.message))) {
    const fixed = reindentQuotedScalars(text);
    if (fixed) {
      const second = parseOnce(fixed.text);
      if (second.doc.errors.length === 0) {
        const out = finish(second.doc, second.lineCounter, opts);
        for (const l of fixed.lines) {
          out.warnings.unshift({
            code: 'yaml/quoted-multiline',
            line: l,
            message: 'this quoted value continues on lines that are not indented below its key: YAML 1.1 parsers (PyYAML, js-yaml) accept that, YAML 1.2 parsers do not. Indent the continuation lines, or use a block scalar (key: >-)',
          });
        }
        return out;
      }
    }
  }
  if (first.doc.errors.length > 0 && opts.unquotedColons !== false) {
    // `description: Use when: the user asks` (a plain value with ": " in it) is the most
    // common YAML mistake in real SKILL.md files; many loaders read it as the string.
    // Only a line the parser reports an error on is quoted (never one inside a block or
    // quoted scalar), one at a time, until the document parses or nothing more applies.
    let current = first;
    let working = text;
    const fixed: { line: number; key: string }[] = [];
    for (let round = 0; round < MAX_COLON_REPAIRS && current.doc.errors.length > 0; round++) {
      const errorLines = new Set(current.doc.errors.map((e) => (e.pos ? current.lineCounter.linePos(e.pos[0]).line : 0)));
      const quoted = quotePlainValuesWithColons(working, errorLines);
      if (!quoted) break;
      working = quoted.text;
      quoted.lines.forEach((line, i) => fixed.push({ line, key: quoted.keys[i] }));
      current = parseOnce(working);
    }
    if (fixed.length > 0 && current.doc.errors.length === 0) {
      const out = finish(current.doc, current.lineCounter, opts);
      out.warnings.unshift(
        ...fixed
          .sort((x, y) => x.line - y.line)
          .map(({ line, key }) => ({
            code: 'yaml/unquoted-colon' as const,
            line,
            message: `the value of "${key}" has ": " in it, which YAML reads as the start of a nested mapping: it was read as the whole text. Quote it (${key}: "...") or use a block scalar (${key}: >-)`,
          })),
      );
      return out;
    }
  }
  if (first.doc.errors.length > 0) {
    const err = first.doc.errors[0];
    const lineAt = (pos: number | undefined) => (pos === undefined ? 1 : first.lineCounter.linePos(pos).line);
    let partial: Record<string, unknown> | null = null;
    try {
      const v = first.doc.toJS({ maxAliasCount: opts.maxAliasCount });
      if (v && typeof v === 'object' && !Array.isArray(v) && !exceedsDepth(v, opts.maxDepth)) partial = v as Record<string, unknown>;
    } catch {
      /* nothing usable */
    }
    throw new YamlParseError(explain(err.message.split('\n')[0], text, err.pos?.[0]), lineAt(err.pos?.[0]), 'syntax', partial);
  }
  return finish(first.doc, first.lineCounter, opts);
}

function parseOnce(text: string): { doc: Document.Parsed; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  try {
    return { doc: parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' }), lineCounter };
  } catch (e) {
    throw new YamlParseError(`YAML could not be parsed: ${(e as Error).message}`, 1, e instanceof RangeError ? 'depth' : 'syntax');
  }
}

/** A plain value starting with `*` is a YAML alias: say so where the parser is terse. */
function explain(message: string, text: string, pos: number | undefined): string {
  if (pos === undefined) return message;
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const lineEnd = text.indexOf('\n', pos);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  const m = /(?:^|:\s+|-\s+)(\*\S+)/.exec(line);
  if (m) return `${message}: ${m[1]} is read as a YAML alias (a plain value starting with * refers to an anchor); quote the value`;
  return message;
}

function finish(doc: Document.Parsed, lineCounter: LineCounter, opts: Opts): LocatedYaml {
  const lineAt = (pos: number | undefined) => (pos === undefined ? 1 : lineCounter.linePos(pos).line);
  const lines: LineMap = new Map();
  const keyWarnings: YamlWarning[] = [];
  // Walk nodes (not values) for lines, and check depth and aliases before converting to JS.
  const walk = (node: unknown, pointer: string, depth: number) => {
    if (depth > opts.maxDepth) throw new YamlParseError(`nesting deeper than ${opts.maxDepth} levels`, lineAt((node as Node).range?.[0]), 'depth');
    if (isMap(node)) {
      lines.set(pointer, lineAt(node.range?.[0]));
      for (const item of node.items) {
        if (!isPair(item)) continue;
        if (isMap(item.key) || isSeq(item.key)) {
          // JS objects stringify such a key ("[ a, b ]"); PyYAML refuses it (unhashable)
          keyWarnings.push({ code: 'yaml/key-not-scalar', message: `a key is a ${isSeq(item.key) ? 'list' : 'mapping'} (${String(item.key)}); it is read as the text "${String(item.key)}", and YAML readers in Python refuse it: use a plain key`, line: lineAt((item.key as Node).range?.[0]) });
        }
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
    } else if (isAlias(node)) {
      if (!lines.has(pointer)) lines.set(pointer, lineAt(node.range?.[0]));
      if (node.resolve(doc) === undefined) {
        throw new YamlParseError(
          `*${node.source} is read as a YAML alias (a plain value starting with * refers to an anchor) and no anchor &${node.source} is set before it; quote the value ("*${node.source}")`,
          lineAt(node.range?.[0]),
          'syntax',
        );
      }
    } else if (isScalar(node)) {
      if (!lines.has(pointer)) lines.set(pointer, lineAt(node.range?.[0]));
    }
  };
  try {
    walk(doc.contents, '', 0);
  } catch (e) {
    if (e instanceof LocatedParseError) throw e;
    throw new YamlParseError(`YAML too deeply nested`, 1, 'depth');
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: opts.maxAliasCount });
  } catch (e) {
    const msg = (e as Error).message;
    if (/excessive alias count/i.test(msg)) throw new YamlParseError(`YAML alias expansion exceeds the limit (${opts.maxAliasCount}): ${msg}`, 1, 'depth');
    throw new YamlParseError(`YAML could not be converted: ${msg}`, 1, 'syntax');
  }
  // Aliases can still build deep values out of shallow nodes.
  if (exceedsDepth(value, opts.maxDepth)) throw new YamlParseError(`nesting deeper than ${opts.maxDepth} levels (through aliases)`, 1, 'depth');
  const warnings: YamlWarning[] = [...keyWarnings, ...doc.warnings.map((w) => ({ message: w.message.split('\n')[0], line: lineAt(w.pos?.[0]) }))];
  return { value, lines, warnings };
}

/**
 * YAML 1.1 leniency: a "..." or '...' value whose continuation lines are not indented
 * more than its key. Returns the text with those lines indented (line count unchanged,
 * so line numbers stay true) and the 1-based lines of the values, or null when a quote
 * never closes (a real error).
 */
export function reindentQuotedScalars(text: string): { text: string; lines: number[] } | null {
  const src = text.split('\n');
  const fixedAt: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const m = /^([ \t]*(?:-[ \t]+)*)(?:[^\s'"#][^'"#]*?:[ \t]+)?(["'])(.*)$/.exec(src[i]);
    if (!m || (m[1].trim() === '' && !/:[ \t]+["']/.test(src[i]))) continue; // a value, not a key
    const q = m[2];
    if (closes(m[3], q) >= 0) continue;
    const indent = m[1].length;
    let j = i + 1;
    let closed = false;
    for (; j < src.length; j++) {
      const lead = /^[ \t]*/.exec(src[j])![0].length;
      if (lead <= indent && src[j].trim() !== '') src[j] = ' '.repeat(indent + 2) + src[j].trimStart();
      if (closes(src[j], q) >= 0) {
        closed = true;
        break;
      }
    }
    if (!closed) return null;
    fixedAt.push(i + 1);
    i = j;
  }
  return fixedAt.length ? { text: src.join('\n'), lines: fixedAt } : null;
}

/**
 * Leniency for a plain (unquoted) mapping value that contains ": " (`key: a: b`) on one
 * of `lines` (1-based: where the parser reported an error): the value is put in double
 * quotes, same line, so line numbers stay true. Only values that start like plain text
 * (not a quote, flow collection, block scalar, anchor, alias or tag) and hold no " #"
 * or tab-# (where a comment would start) are touched. Null when none is.
 */
export function quotePlainValuesWithColons(text: string, lines: Set<number>): { text: string; lines: number[]; keys: string[] } | null {
  const src = text.split('\n');
  const fixedAt: number[] = [];
  const keys: string[] = [];
  for (let i = 0; i < src.length; i++) {
    if (!lines.has(i + 1)) continue;
    const m = /^([ \t]*([A-Za-z_][\w.-]*):[ \t]+)([^\s'"[{|>&*!#%@`][^\n]*)$/.exec(src[i]);
    if (!m) continue;
    const value = m[3].replace(/[ \t\r]+$/, '');
    if (!/:([ \t]|$)/.test(value) || /[ \t]#/.test(value)) continue;
    src[i] = m[1] + JSON.stringify(value) + (m[3].endsWith('\r') ? '\r' : '');
    fixedAt.push(i + 1);
    keys.push(m[2]);
  }
  return fixedAt.length ? { text: src.join('\n'), lines: fixedAt, keys } : null;
}

/** Index of the closing quote in `s`, or -1. */
function closes(s: string, q: string): number {
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (q === '"' && c === '\\') k++;
    else if (c === q) {
      if (q === "'" && s[k + 1] === "'") k++;
      else return k;
    }
  }
  return -1;
}
