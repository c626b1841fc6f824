// A small JSON parser that records, for every value, the line it starts on (so
// diagnostics can say tools.json:12), enforces the nesting limit, and reports duplicate
// keys. JSON.parse gives neither lines nor depth control.

import { ptr, type LineMap } from './diagnostic-sink';

export type LocatedValue = { value: unknown; lines: LineMap; duplicateKeys: { path: string; line: number }[] };

export class LocatedParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly code: 'syntax' | 'depth' = 'syntax',
  ) {
    super(message);
  }
}

/** Set a property even when it is `__proto__` (plain assignment would change the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function parseJsonLocated(text: string, maxDepth: number): LocatedValue {
  let i = 0;
  let line = 1;
  const lines: LineMap = new Map();
  const duplicateKeys: { path: string; line: number }[] = [];
  const n = text.length;
  if (text.charCodeAt(0) === 0xfeff) i = 1;

  const fail = (msg: string): never => {
    throw new LocatedParseError(msg, line);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      else if (c !== 32 && c !== 9 && c !== 13) break;
      i++;
    }
  };
  const str = (): string => {
    // assumes text[i] === '"'
    i++;
    let out = '';
    let start = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c === 92) {
        out += text.slice(start, i);
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const h = text.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('invalid \\u escape in string');
            out += String.fromCharCode(parseInt(h, 16));
            i += 4;
            break;
          }
          default:
            fail(`invalid escape \\${e ?? ''} in string`);
        }
        start = i;
        continue;
      }
      if (c < 32) fail(c === 10 ? 'unterminated string' : 'control character in string');
      i++;
    }
    return fail('unterminated string');
  };
  const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (pointer: string, depth: number): unknown => {
    ws();
    if (i >= n) fail('unexpected end of JSON');
    lines.set(pointer, line);
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) throw new LocatedParseError(`nesting deeper than ${maxDepth} levels`, line, 'depth');
    }
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        const keyLine = line;
        const k = str();
        ws();
        if (text[i] !== ':') fail(`expected ':' after property name "${k}"`);
        i++;
        const p = ptr(pointer, k);
        if (Object.prototype.hasOwnProperty.call(obj, k)) duplicateKeys.push({ path: p, line: keyLine });
        setOwn(obj, k, value(p, depth + 1));
        lines.set(p, keyLine);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail("expected ',' or '}' in object");
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(ptr(pointer, arr.length), depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail("expected ',' or ']' in array");
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    NUM.lastIndex = i;
    const m = NUM.exec(text);
    if (m && m[0].length > 0 && m[0] !== '-') {
      i += m[0].length;
      return Number(m[0]);
    }
    return fail(`unexpected character '${c}'`);
  };
  const v = value('', 0);
  ws();
  if (i < n) fail('unexpected content after the JSON value');
  return { value: v, lines, duplicateKeys };
}
