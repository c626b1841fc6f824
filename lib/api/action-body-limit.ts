// Server actions all share one body limit in Next.js (next.config.ts raises it to the
// package limit so the web publish fits), so any action, even anonymously, would read a
// 50 MB body into memory. Before Next.js reads a body, an action POST is held to what its
// page needs: the publish page gets the upload limit and only with a session cookie;
// every other page gets 1 MiB. Decided from the headers alone, nothing buffered.
import 'server-only';
import type http from 'node:http';
import { sessionTokenFrom } from '../auth/session-from-request';
import { limitsFromEnv, resolveLimits, uploadBodyBytes } from '../skills';

/** what any other action's form may send */
export const ACTION_BODY_BYTES = 1024 * 1024;
/** the publish page: the package plus its multipart framing (next.config.ts allows the same) */
export const uploadActionBodyBytes = () => uploadBodyBytes(resolveLimits(limitsFromEnv(process.env)));

export function actionBodyVerdict(req: http.IncomingMessage): { status: number; code: string; message: string } | null {
  if (req.method !== 'POST' || req.headers['next-action'] === undefined) return null;
  const path = (req.url ?? '').split('?')[0]!;
  const length = Number(req.headers['content-length'] ?? NaN);
  if (!Number.isFinite(length)) return { status: 411, code: 'input/invalid', message: 'A form post must say its length (Content-Length).' };
  if (path === '/publish') {
    if (length > ACTION_BODY_BYTES && !sessionTokenFrom(req.headers.cookie ?? null)) {
      return { status: 401, code: 'auth/unauthenticated', message: 'Sign in to publish.' };
    }
    const max = uploadActionBodyBytes();
    return length > max ? { status: 413, code: 'input/too-large', message: `The upload is ${length} bytes; at most ${max} are read (the package limit, maxPackageBytes, plus the form's framing).` } : null;
  }
  return length > ACTION_BODY_BYTES ? { status: 413, code: 'input/too-large', message: `A form post here is limited to ${ACTION_BODY_BYTES} bytes.` } : null;
}
