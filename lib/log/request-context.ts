// The request id of the work in progress, carried through awaits (AsyncLocalStorage), so
// every log line written while serving a request names it without passing it around.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

type RequestContext = { requestId: string };

// one store per process, even when Next.js bundles this module into several chunks
const holder = globalThis as unknown as { skillyardRequestContext?: AsyncLocalStorage<RequestContext> };
const storage = (holder.skillyardRequestContext ??= new AsyncLocalStorage<RequestContext>());

/** A short random id (base64url, 12 chars); an incoming `x-request-id` may be used instead if it is sane. */
export function newRequestId(incoming?: string | null): string {
  if (incoming && /^[A-Za-z0-9._-]{6,64}$/.test(incoming)) return incoming;
  return randomBytes(9).toString('base64url');
}

export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
