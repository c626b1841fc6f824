// Counts the parts of a multipart body as its bytes arrive, before anything parses them:
// Next.js decodes a server action's form (busboy, or a whole FormData) before the action
// runs, and hundreds of thousands of tiny parts cost gigabytes and seconds there. Past
// `maxParts` the request is cut off: nothing more of it reaches the parser.
import 'server-only';
import type http from 'node:http';

/** The multipart boundary of a Content-Type, or null when the body is not multipart. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** Counts `--boundary` delimiters over a body given in chunks (a delimiter may span two). */
export function partCounter(boundary: string): (chunk: Uint8Array) => number {
  const delimiter = Buffer.from(`--${boundary}`);
  let tail = Buffer.alloc(0);
  let delimiters = 0;
  return (chunk) => {
    // the tail is shorter than a delimiter, so no delimiter is counted twice
    const text = tail.length ? Buffer.concat([tail, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = text.indexOf(delimiter); at !== -1; at = text.indexOf(delimiter, at + delimiter.length)) delimiters++;
    tail = Buffer.from(text.subarray(Math.max(0, text.length - (delimiter.length - 1))));
    // n parts have n + 1 delimiters (the last one closes the body)
    return Math.max(0, delimiters - 1);
  };
}

/**
 * Watches `req`'s body as the HTTP parser hands it over; when it holds more than `maxParts`
 * parts, the chunk is dropped, `onTooMany` answers, and the request is torn down. A body
 * that is not multipart is left alone (its length is bounded by Content-Length).
 */
export function limitMultipartParts(req: http.IncomingMessage, maxParts: number, onTooMany: (parts: number) => void): void {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (!boundary) return;
  const count = partCounter(boundary);
  const push = req.push.bind(req);
  let cut = false;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (cut) return false;
    if (chunk instanceof Uint8Array) {
      const parts = count(chunk);
      if (parts > maxParts) {
        cut = true;
        onTooMany(parts);
        return false;
      }
    }
    return push(chunk, encoding);
  };
}
