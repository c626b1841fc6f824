// The client address every limit is keyed by comes from X-Forwarded-For. Next.js writes
// the socket's address there only when the header is absent (`??=`), so without a proxy a
// client could name any address it likes and get a fresh rate limit, anonymous quota and
// sandbox share per request. Before Next.js sees a request, the header is pinned: with no
// trusted proxy (SKILLYARD_TRUSTED_PROXIES=0) it is the socket's address alone; behind N
// trusted proxies, what they wrote is kept (the client is N entries from the right).
import 'server-only';
import type http from 'node:http';

export function pinClientAddress(req: http.IncomingMessage, trustedProxies: number): void {
  if (trustedProxies > 0) return;
  const socket = req.socket?.remoteAddress;
  if (socket) req.headers['x-forwarded-for'] = socket;
  else delete req.headers['x-forwarded-for'];
}
