// Who is asking about a run: the caller's user, and the run's control token from the
// `X-Run-Control` header (API) or the `sy_run_<id>` cookie (the browser that created it).
import 'server-only';
import type { RunAccess } from '../runs';
import { readCookie } from './anonymous-id';

export const runCookieName = (runId: string) => `sy_run_${runId}`;

export function runAccessFrom(req: Request, runId: string, userId: string | null): RunAccess {
  return { userId, controlToken: req.headers.get('x-run-control') ?? readCookie(req, runCookieName(runId)) ?? null };
}
