// JSON Schema `pattern` and `patternProperties` come from publishers: they must never
// run on a backtracking engine in the web process (a pattern such as ^(a+)+$ takes
// exponential time). Ajv compiles every pattern through this engine instead: RE2JS, a
// pure-JavaScript port of RE2 (linear-time matching, no native build). The npm `re2`
// binding was the first choice; on these machines its prebuilt binaries (GitHub
// downloads) cannot be fetched and a source build needs a compiler and Node headers
// for the running Node, so the pure-JS engine is used everywhere (docs/formats.md).
//
// RE2 has no lookaround and no backreferences (they are what make matching
// non-linear): such patterns are refused with a clear message. JavaScript's \uXXXX and
// \u{X} escapes are translated to RE2's \x{X}.

import { RE2JS } from 're2js';

/** Longest pattern accepted (characters); longer ones are refused, not compiled. */
export const MAX_PATTERN_LENGTH = 1000;
/** RE2 program size (instructions) above which a pattern is refused: a{1000}{1000} and the like. */
export const MAX_PATTERN_PROGRAM = 20_000;

export class PatternError extends Error {}

/** RE2 syntax for a JavaScript (u-flag) pattern. */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c !== '\\' || i + 1 >= pattern.length) {
      out += c;
      continue;
    }
    const n = pattern[i + 1];
    const hex4 = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2, i + 6));
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 2));
    if (n === 'u' && braced) {
      out += `\\x{${braced[1]}}`;
      i += 1 + braced[0].length;
    } else if (n === 'u' && hex4) {
      out += `\\x{${hex4[0]}}`;
      i += 5;
    } else if (n === '/') {
      out += '/';
      i += 1;
    } else {
      out += c + n;
      i += 1;
    }
  }
  return out;
}

const cache = new Map<string, RE2JS>();

/** Compile a publisher's pattern for linear-time matching; throws PatternError with the reason. */
export function compileLinear(pattern: string, flags = ''): RE2JS {
  const key = `${flags}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  if (pattern.length > MAX_PATTERN_LENGTH) throw new PatternError(`the pattern is ${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(toRe2Syntax(pattern), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    const msg = (e as Error).message;
    if (/\(\?[=!<]/.test(pattern) && /unsupported Perl syntax|invalid named capture|missing argument/.test(msg)) throw new PatternError('lookahead and lookbehind are not supported (patterns run on a linear-time engine, RE2)');
    if (/\\[1-9]/.test(pattern) && /invalid escape/.test(msg)) throw new PatternError('backreferences (\\1) are not supported (patterns run on a linear-time engine, RE2)');
    throw new PatternError(msg.replace(/^error parsing regexp: /, ''));
  }
  if (re.programSize() > MAX_PATTERN_PROGRAM) throw new PatternError(`the pattern compiles to ${re.programSize()} instructions; the limit is ${MAX_PATTERN_PROGRAM}`);
  if (cache.size >= 5000) cache.delete(cache.keys().next().value as string);
  cache.set(key, re);
  return re;
}

/** Ajv's `code.regExp` engine: `test` runs in time linear in the input. */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string) => {
    const re = compileLinear(pattern, flags);
    // Ajv keys compiled patterns by toString(): it must name the pattern.
    return { test: (s: string) => re.test(s), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'linearRegExp /* lib/skills/linear-regexp.ts: RE2JS */' },
);
