// Who is asking about a run: the API token's user, and the run's control token from the
// `X-Run-Control` header (API) or the `sy_run_<id>` cookie (the browser that created it).
import type { ApiPrincipal } from '../auth/api-tokens';
import type { RunAccess } from '../runs/get-run';

export const runCookieName = (runId: string) => `sy_run_${runId}`;

export function runAccessFrom(req: Request, runId: string, principal: ApiPrincipal | null): RunAccess {
  const cookies = req.headers.get('cookie') ?? '';
  const fromCookie = cookies
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([name]) => name === runCookieName(runId))?.[1];
  return { userId: principal?.userId ?? null, controlToken: req.headers.get('x-run-control') ?? fromCookie ?? null };
}
