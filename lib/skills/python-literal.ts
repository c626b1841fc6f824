// Reads a Python module's metadata WITHOUT running it: the module docstring, top-level
// assignments whose right side is a literal (str, bytes-free numbers, True/False/None,
// dict, list, tuple, set), and the names of top-level functions and classes.
// Anything else on the right side is reported as "not a literal", never evaluated.

import { ptr, type LineMap } from './diagnostic-sink';
import { setOwn } from './located-json';

type Tok =
  | { t: 'name'; v: string; line: number; col: number; bol: boolean }
  | { t: 'num'; v: string; line: number; col: number; bol: boolean }
  | { t: 'str'; v: string; f: boolean; bytes: boolean; line: number; col: number; bol: boolean }
  | { t: 'op'; v: string; line: number; col: number; bol: boolean }
  | { t: 'nl'; v: ''; line: number; col: number; bol: boolean };

export type PyAssignment = { value: unknown; line: number; lines: LineMap };
export type PyModule = {
  docstring: string | null;
  assignments: Map<string, PyAssignment>;
  /** top-level names assigned something that is not a literal: name -> line */
  nonLiteral: Map<string, number>;
  functions: Map<string, { line: number; async: boolean }>;
  classes: Map<string, number>;
  /** module-level classes with an `execute` method (def or async def in the class body) */
  classesWithExecute: Set<string>;
  /** `return {...}` statements of the module-level execute(): the dict's literal string keys (null when not a dict display) */
  executeReturns: { line: number; keys: string[] | null }[];
  syntaxError: { message: string; line: number } | null;
};

class PySyntax extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
  }
}

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  let col = 0;
  let depth = 0;
  let bol = true;
  const n = src.length;
  const push = (tok: Record<string, unknown>) => {
    toks.push({ ...tok, bol } as Tok);
    bol = false;
  };
  while (i < n) {
    const c = src[i];
    if (c === '\n') {
      if (depth === 0 && !bol) {
        toks.push({ t: 'nl', v: '', line, col, bol: false });
      }
      if (depth === 0) bol = true;
      i++;
      line++;
      col = 0;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      col++;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      col = 0;
      continue;
    }
    const startCol = col;
    const startLine = line;
    // string, with optional prefix
    const pm = /^([rRbBuUfF]{0,2})(['"])/.exec(src.slice(i, i + 3));
    if (pm && (pm[1] === '' || /^(r|b|u|f|rb|br|fr|rf)$/i.test(pm[1]))) {
      const prefix = pm[1].toLowerCase();
      const q = pm[2];
      i += prefix.length;
      const triple = src.startsWith(q + q + q, i);
      const close = triple ? q + q + q : q;
      i += close.length;
      let out = '';
      const raw = prefix.includes('r');
      for (;;) {
        if (i >= n) throw new PySyntax('unterminated string literal', startLine);
        if (src.startsWith(close, i)) {
          i += close.length;
          break;
        }
        const ch = src[i];
        if (ch === '\n') {
          if (!triple) throw new PySyntax('unterminated string literal', startLine);
          line++;
        }
        if (ch === '\\' && i + 1 < n) {
          const e = src[i + 1];
          if (raw) {
            out += ch + e;
            if (e === '\n') line++;
            i += 2;
            continue;
          }
          if (e in ESC) {
            out += ESC[e];
            if (e === '\n') line++;
            i += 2;
            continue;
          }
          const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
          if (hex) {
            const h = src.slice(i + 2, i + 2 + hex);
            if (/^[0-9a-fA-F]+$/.test(h) && h.length === hex) {
              out += String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff));
              i += 2 + hex;
              continue;
            }
          }
          const oct = /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4));
          if (oct) {
            out += String.fromCharCode(parseInt(oct[0], 8));
            i += 1 + oct[0].length;
            continue;
          }
          out += ch + e;
          i += 2;
          continue;
        }
        out += ch;
        i++;
      }
      col += 1; // column only matters at line starts
      push({ t: 'str', v: out, f: prefix.includes('f'), bytes: prefix.includes('b'), line: startLine, col: startCol });
      continue;
    }
    const nm = /^[A-Za-z_\u00c0-\uffff][A-Za-z0-9_\u00c0-\uffff]*/.exec(src.slice(i, i + 256));
    if (nm) {
      push({ t: 'name', v: nm[0], line, col: startCol });
      i += nm[0].length;
      col += nm[0].length;
      continue;
    }
    const num = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?)/.exec(src.slice(i, i + 128));
    if (nm === null && num && num[0].length > 0) {
      push({ t: 'num', v: num[0], line, col: startCol });
      i += num[0].length;
      col += num[0].length;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    const two = src.slice(i, i + 2);
    const op = ['**', '->', ':=', '==', '!=', '<=', '>=', '//', '+=', '-='].includes(two) ? two : c;
    push({ t: 'op', v: op, line, col: startCol });
    i += op.length;
    col += op.length;
  }
  toks.push({ t: 'nl', v: '', line, col, bol: false });
  return toks;
}

class NotLiteral extends Error {}

function parseNumber(v: string): number {
  const s = v.replace(/_/g, '');
  if (/[jJ]$/.test(s)) throw new NotLiteral('complex numbers are not JSON');
  if (/^0[xX]/.test(s)) return parseInt(s.slice(2), 16);
  if (/^0[oO]/.test(s)) return parseInt(s.slice(2), 8);
  if (/^0[bB]/.test(s)) return parseInt(s.slice(2), 2);
  return Number(s);
}

/** Parse a literal expression starting at toks[pos]; returns the value and next index. */
/**
 * Names assigned a literal earlier in the module (`ACTIONS = [...]` before
 * `CONFIG_SCHEMA = {"enum": ACTIONS}`): a later literal may use them, as Rye's own reader
 * (which imports the module) sees them. `budget` bounds the values copied in (a chain of
 * names that doubles at each step would otherwise grow without limit).
 */
type Names = { values: Map<string, unknown>; budget: number };

function sizeOf(v: unknown, limit: number): number {
  let n = 0;
  const stack = [v];
  while (stack.length && n <= limit) {
    const x = stack.pop();
    n++;
    if (Array.isArray(x)) stack.push(...x);
    else if (x && typeof x === 'object') stack.push(...Object.values(x));
  }
  return n;
}

function parseLiteral(toks: Tok[], pos: number, pointer: string, lines: LineMap, depth: number, maxDepth: number, names?: Names): [unknown, number] {
  const tok = toks[pos];
  if (!tok) throw new NotLiteral('unexpected end');
  lines.set(pointer, tok.line);
  if (depth > maxDepth) throw new PySyntax(`literal nested deeper than ${maxDepth} levels`, tok.line);
  if (tok.t === 'str') {
    let s = '';
    let p = pos;
    while (toks[p]?.t === 'str') {
      const st = toks[p] as Extract<Tok, { t: 'str' }>;
      if (st.bytes) throw new NotLiteral('bytes literal');
      if (st.f && /\{[^{]/.test(st.v.replace(/\{\{/g, ''))) throw new NotLiteral('f-string with substitutions');
      s += st.f ? st.v.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : st.v;
      p++;
    }
    return [s, p];
  }
  if (tok.t === 'num') return [parseNumber(tok.v), pos + 1];
  if (tok.t === 'name') {
    if (tok.v === 'True') return [true, pos + 1];
    if (tok.v === 'False') return [false, pos + 1];
    if (tok.v === 'None') return [null, pos + 1];
    const next = toks[pos + 1];
    // a bare name (not a call, attribute or subscript) bound to a literal above
    if (names?.values.has(tok.v) && !(next?.t === 'op' && (next.v === '(' || next.v === '.' || next.v === '['))) {
      const v = names.values.get(tok.v);
      names.budget -= sizeOf(v, names.budget);
      if (names.budget < 0) throw new NotLiteral(`name ${tok.v} (the names used expand to too large a value)`);
      return [v !== null && typeof v === 'object' ? structuredClone(v) : v, pos + 1];
    }
    throw new NotLiteral(`name ${tok.v}`);
  }
  if (tok.t === 'op' && (tok.v === '-' || tok.v === '+')) {
    const nx = toks[pos + 1];
    if (nx?.t !== 'num') throw new NotLiteral('unary operator on a non-number');
    const v = parseNumber(nx.v);
    return [tok.v === '-' ? -v : v, pos + 2];
  }
  if (tok.t === 'op' && (tok.v === '[' || tok.v === '(')) {
    const close = tok.v === '[' ? ']' : ')';
    const arr: unknown[] = [];
    let p = pos + 1;
    let sawComma = false;
    while (!(toks[p]?.t === 'op' && toks[p].v === close)) {
      if (!toks[p] || toks[p].t === 'nl') throw new PySyntax(`'${tok.v}' was never closed`, tok.line);
      const [v, np] = parseLiteral(toks, p, ptr(pointer, arr.length), lines, depth + 1, maxDepth, names);
      arr.push(v);
      p = np;
      if (toks[p]?.t === 'op' && toks[p].v === ',') {
        sawComma = true;
        p++;
      } else if (!(toks[p]?.t === 'op' && toks[p].v === close)) throw new NotLiteral('expression inside brackets');
    }
    // (x) is just x; (x,) is a tuple
    if (tok.v === '(' && arr.length === 1 && !sawComma) return [arr[0], p + 1];
    return [arr, p + 1];
  }
  if (tok.t === 'op' && tok.v === '{') {
    const obj: Record<string, unknown> = {};
    const set: unknown[] = [];
    let p = pos + 1;
    let isSet = false;
    while (!(toks[p]?.t === 'op' && toks[p].v === '}')) {
      if (!toks[p] || toks[p].t === 'nl') throw new PySyntax(`'{' was never closed`, tok.line);
      if (toks[p].t === 'op' && toks[p].v === '**') throw new NotLiteral('dict unpacking');
      const keyTok = toks[p];
      const [k, np] = parseLiteral(toks, p, `${pointer}/~key`, lines, depth + 1, maxDepth, names);
      p = np;
      if (toks[p]?.t === 'op' && toks[p].v === ':') {
        if (k !== null && typeof k === 'object') throw new NotLiteral('unhashable dict key');
        const key = k === true ? 'True' : k === false ? 'False' : k === null ? 'None' : String(k);
        const childPtr = ptr(pointer, key);
        const [v, vp] = parseLiteral(toks, p + 1, childPtr, lines, depth + 1, maxDepth, names);
        setOwn(obj, key, v);
        lines.set(childPtr, keyTok.line);
        p = vp;
      } else {
        isSet = true;
        set.push(k);
      }
      if (toks[p]?.t === 'op' && toks[p].v === ',') p++;
      else if (!(toks[p]?.t === 'op' && toks[p].v === '}')) throw new NotLiteral('expression inside braces');
    }
    lines.delete(`${pointer}/~key`);
    return [isSet ? set : obj, p + 1];
  }
  throw new NotLiteral(`unexpected ${tok.v || tok.t}`);
}

export function parsePythonModule(src: string, opts: { maxDepth: number }): PyModule {
  const mod: PyModule = { docstring: null, assignments: new Map(), nonLiteral: new Map(), functions: new Map(), classes: new Map(), classesWithExecute: new Set(), executeReturns: [], syntaxError: null };
  let toks: Tok[];
  try {
    toks = tokenize(src.charCodeAt(0) === 0xfeff ? src.slice(1) : src);
  } catch (e) {
    mod.syntaxError = { message: (e as Error).message, line: e instanceof PySyntax ? e.line : 1 };
    return mod;
  }
  const names: Names = { values: new Map(), budget: 100_000 };
  let first = true;
  let inExecute = false;
  // the module-level class being read, and the indentation of its body (its first statement's)
  let inClass: { name: string; bodyCol: number | null } | null = null;
  for (let p = 0; p < toks.length; p++) {
    const t0 = toks[p];
    // Inside `def execute`: collect `return {...}` shapes (Rye rule 11: {success: bool, ...}).
    if (inExecute && t0.t === 'name' && t0.v === 'return' && !(t0.bol && t0.col === 0)) {
      const next = toks[p + 1];
      if (next?.t === 'op' && next.v === '{') {
        const keys: string[] = [];
        let depth = 0;
        let spread = false;
        for (let q = p + 1; q < toks.length; q++) {
          const tq = toks[q];
          if (tq.t === 'op' && '([{'.includes(tq.v)) depth++;
          else if (tq.t === 'op' && ')]}'.includes(tq.v)) {
            if (--depth === 0) break;
          } else if (depth === 1 && tq.t === 'str' && toks[q + 1]?.t === 'op' && toks[q + 1].v === ':') keys.push(tq.v);
          else if (depth === 1 && tq.t === 'op' && tq.v === '**') spread = true;
        }
        // A `**` spread may bring "success" in: only a dict without it and without a
        // spread is known to lack the key.
        mod.executeReturns.push({ line: t0.line, keys: spread && !keys.includes('success') ? null : keys });
      } else mod.executeReturns.push({ line: t0.line, keys: null });
    }
    const tok = toks[p];
    if (!tok.bol) continue;
    const stmtFirst = first;
    first = false;
    if (inClass && tok.col > 0) {
      if (inClass.bodyCol === null) inClass.bodyCol = tok.col;
      if (tok.col === inClass.bodyCol && ((tok.v === 'def' && toks[p + 1]?.v === 'execute') || (tok.v === 'async' && toks[p + 1]?.v === 'def' && toks[p + 2]?.v === 'execute'))) mod.classesWithExecute.add(inClass.name);
    }
    if (tok.col !== 0) continue; // only module-level statements
    inClass = tok.v === 'class' && toks[p + 1]?.t === 'name' ? { name: toks[p + 1].v, bodyCol: null } : null;
    inExecute = (tok.v === 'def' && toks[p + 1]?.v === 'execute') || (tok.v === 'async' && toks[p + 2]?.v === 'execute');
    if (stmtFirst && tok.t === 'str') {
      let s = '';
      let q = p;
      while (toks[q]?.t === 'str') s += (toks[q++] as { v: string }).v;
      if (toks[q]?.t === 'nl') mod.docstring = s;
      continue;
    }
    if (tok.t !== 'name') continue;
    if (tok.v === 'def' && toks[p + 1]?.t === 'name') mod.functions.set(toks[p + 1].v, { line: tok.line, async: false });
    else if (tok.v === 'async' && toks[p + 1]?.v === 'def' && toks[p + 2]?.t === 'name') mod.functions.set(toks[p + 2].v, { line: tok.line, async: true });
    else if (tok.v === 'class' && toks[p + 1]?.t === 'name') mod.classes.set(toks[p + 1].v, tok.line);
    else {
      // NAME = value   |   NAME: annotation = value
      let q = p + 1;
      const next = toks[q];
      if (next?.t === 'op' && next.v === ':') {
        let d = 0;
        q++;
        while (toks[q] && toks[q].t !== 'nl' && !(d === 0 && toks[q].t === 'op' && toks[q].v === '=')) {
          if (toks[q].t === 'op' && '([{'.includes(toks[q].v)) d++;
          if (toks[q].t === 'op' && ')]}'.includes(toks[q].v)) d--;
          q++;
        }
      }
      if (!(toks[q]?.t === 'op' && toks[q].v === '=')) continue;
      const lines: LineMap = new Map();
      try {
        const [value, end] = parseLiteral(toks, q + 1, '', lines, 0, opts.maxDepth, names);
        if (toks[end]?.t !== 'nl') throw new NotLiteral('expression continues after the literal');
        mod.assignments.set(tok.v, { value, line: tok.line, lines });
        mod.nonLiteral.delete(tok.v);
        names.values.set(tok.v, value);
      } catch (e) {
        if (e instanceof PySyntax) {
          mod.syntaxError = { message: e.message, line: e.line };
          return mod;
        }
        mod.nonLiteral.set(tok.v, tok.line);
        mod.assignments.delete(tok.v);
        names.values.delete(tok.v);
      }
    }
  }
  return mod;
}
