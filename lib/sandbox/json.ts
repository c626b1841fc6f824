// JSON crossing the boundary is untrusted. JSON.parse never pollutes prototypes by itself,
// but an own "__proto__" key turns into pollution the moment a caller does
// Object.assign/spread-merge it, so such keys are dropped on the way in to the host.

// An escaped key ("\u005f_proto__") parses to "__proto__" too, so any \u escape takes the
// slow path; JSON.stringify only emits \u for control characters and lone surrogates.
const mayHoldProtoKey = (text: string) => text.includes('__proto__') || text.includes('\\u');

function dropProtoKeys(this: unknown, key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

export function parseUntrustedJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  return mayHoldProtoKey(text) ? JSON.parse(text, dropProtoKeys) : JSON.parse(text);
}

/** JSON.stringify that reports failure instead of throwing (BigInt, cycles). */
export function stringifyForGuest(value: unknown): { ok: true; json: string | undefined } | { ok: false; message: string } {
  try {
    return { ok: true, json: JSON.stringify(value) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Deepest nesting a result or host-call payload may have (deeper ones overflow host stacks in callers). */
export const MAX_JSON_DEPTH = 1_000;

/** Whether JSON text nests arrays/objects deeper than `max`: one linear pass, strings skipped. */
export function jsonDeeperThan(text: string | undefined, max = MAX_JSON_DEPTH): boolean {
  if (text === undefined) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string literal: the next unescaped quote
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
