// Redacts the secrets handed to a run (the caller's held token values, team secrets the
// environment capability read, the model API key) from what the run records: a tool
// that returns or throws its bearer token must not put it in the stored trace, the SSE
// stream, the run's result or a log line. The generic log redaction (lib/log) only knows
// patterns (`Bearer …`, `sy_…`); this knows the actual values.
//
// Each secret is matched as it is and in the forms a tool most often re-encodes it:
// percent-encoded, JSON-escaped, base64 and base64url. Secrets shorter than
// MIN_SECRET_LENGTH are not matched (a 3-character value would blank ordinary words).
import { REDACTED } from './redact';

export const MIN_SECRET_LENGTH = 6;

export type SecretScrubber = {
  /** learns a secret (null, empty or too short: ignored) */
  add(secret: string | null | undefined): void;
  /** `text` with every known secret replaced by "[redacted]" */
  scrubText(text: string): string;
  /** a copy of a JSON-like value (strings, keys, arrays, plain objects) with secrets replaced */
  scrub<T>(value: T): T;
  /** `work`'s value scrubbed; if it throws, the error is rethrown with its message and `details` scrubbed */
  scrubbed<T>(work: Promise<T>): Promise<T>;
  /** how many distinct secrets it knows */
  readonly size: number;
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function encodings(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), b64, b64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url')];
}

export function createSecretScrubber(initial: Iterable<string | null | undefined> = []): SecretScrubber {
  const secrets = new Set<string>();
  let pattern: RegExp | null = null;

  const add = (secret: string | null | undefined) => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
    secrets.add(secret);
    const forms = new Set<string>();
    for (const s of secrets) for (const f of encodings(s)) if (f.length >= MIN_SECRET_LENGTH) forms.add(f);
    // longest first, so a secret that contains another is replaced whole
    pattern = new RegExp(
      [...forms]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
  };

  const scrubText = (text: string) => (pattern && text.length >= MIN_SECRET_LENGTH ? text.replace(pattern, REDACTED) : text);

  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrubText(value);
    if (value === null || typeof value !== 'object' || depth > 200) return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    const proto = Object.getPrototypeOf(value);
    // run data is JSON by the time it is scrubbed; Dates and the like carry no tool text
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrubText(k)] = walk(v, depth + 1);
    return out;
  };

  const scrub = <T>(value: T): T => (pattern ? (walk(value, 0) as T) : value);

  for (const s of initial) add(s);
  return {
    add,
    scrubText,
    scrub,
    async scrubbed<T>(work: Promise<T>): Promise<T> {
      try {
        return scrub(await work);
      } catch (err) {
        if (err instanceof Error) {
          err.message = scrubText(err.message);
          const e = err as Error & { details?: unknown };
          if (e.details !== undefined) e.details = scrub(e.details);
        }
        throw err;
      }
    },
    get size() {
      return secrets.size;
    },
  };
}
