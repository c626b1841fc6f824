// The URL the browser used for a request: the Host (or X-Forwarded-Host/-Proto) the request
// arrived with, unless AUTH_URL pins the site's origin. Hosts that are not host[:port] are ignored.
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export function requestWithHostUrl(url: string, headers: Pick<Headers, 'get'>, env: Record<string, string | undefined> = process.env): string {
  if (env.AUTH_URL ?? env.NEXTAUTH_URL) return url;
  const host = (headers.get('x-forwarded-host') ?? headers.get('host') ?? '').split(',')[0].trim();
  if (!HOST.test(host)) return url;
  const u = new URL(url);
  const proto = (headers.get('x-forwarded-proto') ?? u.protocol.replace(':', '')).split(',')[0].trim();
  if (proto !== 'http' && proto !== 'https') return url;
  return `${proto}://${host}${u.pathname}${u.search}`;
}
