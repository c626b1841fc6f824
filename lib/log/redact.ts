// What a log line may not carry: secrets by field name, credentials inside URLs, and
// bearer/API tokens inside free text. Applied to every field before a line is written.

const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|private[-_]?key|credential|session/i;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(:[^/\s@]*)?@/gi;
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;
const SKILLYARD_TOKEN = /\bsy_[A-Za-z0-9_-]{8,}/g;
const MAX_STRING = 2000;
const MAX_DEPTH = 6;

export const REDACTED = '[redacted]';

/** Scrubs credentials out of free text (error messages, URLs). */
export function redactText(text: string): string {
  const scrubbed = text.replace(URL_CREDENTIALS, `$1${REDACTED}@`).replace(BEARER, `$1${REDACTED}`).replace(SKILLYARD_TOKEN, REDACTED);
  return scrubbed.length > MAX_STRING ? `${scrubbed.slice(0, MAX_STRING)}…` : scrubbed;
}

/** An Error as plain fields: name, code, message and stack, all scrubbed. */
export function serializeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: redactText(String(err)) };
  const code = (err as { code?: unknown }).code;
  return {
    name: err.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    message: redactText(err.message),
    ...(err.stack ? { stack: redactText(err.stack) } : {}),
  };
}

/** A JSON-safe copy of `value` with secret fields replaced and text scrubbed. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return serializeError(value);
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return '[deep]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = SECRET_KEY.test(k) && !/count|expires|id$/i.test(k) ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return String(value);
}
