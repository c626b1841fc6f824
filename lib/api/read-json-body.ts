// Reading a request body safely: refused from Content-Length before a byte is read, read
// as a stream that stops at the byte limit, nesting checked before JSON.parse (whose
// recursion and the code after it must never see 5,000 levels), NUL refused in strings.
import 'server-only';
import { AppError } from '../errors';
import { jsonTextExceedsDepth } from '../skills';

export type BodyLimits = { maxBytes: number; maxDepth: number; allowNul?: boolean };

const mb = (n: number) => (n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${Math.round(n / 1024)} KB`);

/** The body as text, at most `maxBytes` bytes; refuses early from Content-Length. */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  return new TextDecoder('utf-8', { fatal: false }).decode(await readBodyBytes(req, maxBytes));
}

/** The body's bytes, at most `maxBytes`: refused from Content-Length, else read until the limit. */
export async function readBodyBytes(
  req: Request,
  maxBytes: number,
  tooLarge: () => Error = () => new AppError('input/too-large', `The request body is larger than ${mb(maxBytes)}.`),
): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

/** Whether any string (key or value) of a parsed JSON value holds U+0000 (iterative). */
export function jsonHasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/** Parses a JSON body within the limits; an empty body is `{}`. */
export async function readJsonBody(req: Request, limits: BodyLimits): Promise<unknown> {
  const text = await readBodyText(req, limits.maxBytes);
  if (!text.trim()) return {};
  if (jsonTextExceedsDepth(text, limits.maxDepth)) {
    throw new AppError('input/too-deep', `The JSON body nests deeper than ${limits.maxDepth} levels.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('input/invalid-json', 'The request body is not valid JSON.');
  }
  if (!limits.allowNul && jsonHasNul(value)) {
    throw new AppError('input/nul-byte', 'The JSON body holds a NUL character (\\u0000), which no field here accepts.');
  }
  return value;
}
