// Server actions all share one body limit in Next.js (next.config.ts raises it to the
// package limit so the web publish fits), and Next.js decodes any multipart POST to a page
// (a server action, with or without its Next-Action header) before the action runs. So
// before Next.js reads a body, a page POST is held to what its page needs: the publish
// page gets the upload limit (and only with a session that exists: page-guard.ts checks
// it); every other page gets 1 MiB. Decided from the headers alone, nothing buffered.
import 'server-only';
import type http from 'node:http';
import { packageLimitSettings } from '../registry';
import { resolveLimits, uploadBodyBytes } from '../skills';

/** what any other action's form may send */
export const ACTION_BODY_BYTES = 1024 * 1024;
/** the publish page: the package plus its multipart framing (next.config.ts allows the same) */
export const uploadActionBodyBytes = () => uploadBodyBytes(resolveLimits(packageLimitSettings()));
/** the publish page's form: one part per file plus its few fields */
export const uploadFormParts = () => resolveLimits(packageLimitSettings()).maxPackageFiles + 64;

const STATIC = ['/_next/', '/favicon.ico', '/icon.svg', '/robots.txt'];

/** A path Next.js renders a page (or runs a page's action) for: not the API, not a static file. */
export function isPagePath(path: string): boolean {
  return !path.startsWith('/api/') && path !== '/api' && !STATIC.some((s) => path === s || path.startsWith(s));
}

export const pathOf = (req: http.IncomingMessage) => (req.url ?? '').split('?')[0]!;

/** Whether a page POST this long may only come from a signed-in user (the publish page's uploads). */
export function needsSession(req: http.IncomingMessage): boolean {
  return pathOf(req) === '/publish' && Number(req.headers['content-length']) > ACTION_BODY_BYTES;
}

export function actionBodyVerdict(req: http.IncomingMessage): { status: number; code: string; message: string } | null {
  if (req.method !== 'POST') return null;
  const path = pathOf(req);
  if (!isPagePath(path)) return null;
  const length = Number(req.headers['content-length'] ?? NaN);
  if (!Number.isFinite(length)) return { status: 411, code: 'input/invalid', message: 'A form post must say its length (Content-Length).' };
  if (path === '/publish') {
    const max = uploadActionBodyBytes();
    return length > max
      ? { status: 413, code: 'input/too-large', message: `The upload is ${length} bytes; at most ${max} are read (the package limit, maxPackageBytes, plus the form's framing).` }
      : null;
  }
  return length > ACTION_BODY_BYTES ? { status: 413, code: 'input/too-large', message: `A form post here is limited to ${ACTION_BODY_BYTES} bytes.` } : null;
}
