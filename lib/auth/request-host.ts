// The URL the browser used for a request, for Auth.js (it builds the OAuth redirect_uri and
// its redirects from the request URL). AUTH_URL (or NEXTAUTH_URL) pins the site's origin;
// otherwise the Host (or X-Forwarded-Host/-Proto) the request arrived with. Hosts that are
// not host[:port] are ignored. Never go through NextRequest/NextURL with the result: they
// rewrite 127.x.x.x and [::1] to "localhost" (next/dist/server/web/next-url.js).
import 'server-only';
import { setting, type Env } from '../config';
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export function requestWithHostUrl(url: string, headers: Pick<Headers, 'get'>, env?: Env): string {
  const u = new URL(url);
  const pinned = setting('AUTH_URL', env) ?? setting('NEXTAUTH_URL', env);
  if (pinned) {
    try {
      return `${new URL(pinned).origin}${u.pathname}${u.search}`;
    } catch {
      return url;
    }
  }
  const host = (headers.get('x-forwarded-host') ?? headers.get('host') ?? '').split(',')[0].trim();
  if (!HOST.test(host)) return url;
  const proto = (headers.get('x-forwarded-proto') ?? u.protocol.replace(':', '')).split(',')[0].trim();
  if (proto !== 'http' && proto !== 'https') return url;
  return `${proto}://${host}${u.pathname}${u.search}`;
}
