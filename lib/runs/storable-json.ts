// What a run stores (events, its result, its config) must fit Postgres jsonb: no NUL
// characters, no lone UTF-16 surrogates, and a bounded depth (deep values overflow the
// stack of host-side code that walks them; SPEC section 7 sets 64). `toStorableJson`
// returns a JSON-safe copy with NULs escaped as the six characters `\u0000` and lone
// surrogates replaced by U+FFFD (safe: the text stays readable and nothing else moves),
// and refuses what cannot be made safe (too deep, cyclic, BigInt) with a RunError.
// The walk stops at the limit, so a value nested 5,000 deep never recurses 5,000 times.
import 'server-only';

import { exceedsDepth } from '../skills';
import { RunError } from './run-errors';

export const MAX_RUN_JSON_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableString(s: string): string {
  const escaped = s.includes('\u0000') ? s.replaceAll('\u0000', '\\u0000') : s;
  return escaped.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A copy of `value` as JSON.stringify would see it (undefined and functions dropped from
 * objects, null in arrays; toJSON honoured), safe for jsonb. `what` names the value in
 * the error ("the result of tool-result").
 */
export function toStorableJson(value: unknown, what = 'the value', maxDepth = MAX_RUN_JSON_DEPTH): unknown {
  const seen = new Set<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON: () => unknown }).toJSON();
    }
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'string') return storableString(v);
    if (typeof v === 'bigint') throw new RunError('run/unstorable', `${what} holds a BigInt, which JSON cannot carry.`);
    if (typeof v !== 'object') return undefined; // undefined, functions, symbols: dropped as in JSON
    if (depth >= maxDepth) {
      throw new RunError('run/too-deep', `${what} is nested more than ${maxDepth} levels deep (the limit for run data).`);
    }
    if (seen.has(v)) throw new RunError('run/unstorable', `${what} refers to itself (a cycle), which JSON cannot carry.`);
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1) ?? null);
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) {
        const copy = walk(item, depth + 1);
        if (copy !== undefined) out[storableString(key)] = copy;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0);
}

/** Throws a RunError when `value` (already parsed JSON) is deeper than the limit. */
export function assertJsonDepth(value: unknown, what = 'the value', maxDepth = MAX_RUN_JSON_DEPTH): void {
  // an object at depth maxDepth is one level too many (as toStorableJson counts)
  if (exceedsDepth(value, maxDepth - 1)) {
    throw new RunError('run/too-deep', `${what} is nested more than ${maxDepth} levels deep (the limit for run data).`);
  }
}
