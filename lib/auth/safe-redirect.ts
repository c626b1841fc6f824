// Where a sign-in may send the browser afterwards: a path on this site, never another
// origin (open redirects through `callbackUrl` or `next` are refused).
import 'server-only';

/** A same-site path (`/x?y`), or `fallback` for anything else. */
export function safeLocalPath(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string' || target.length > 2000) return fallback;
  // `//host` and `/\host` are protocol-relative in browsers; control characters are refused
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\') || /[\u0000-\u001f\\]/.test(target)) return fallback;
  return target;
}

/** Auth.js `redirect` callback: same-origin absolute URLs or local paths only. */
export function safeRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  if (url.startsWith('/')) {
    const path = safeLocalPath(url, '');
    return path ? `${baseUrl}${path}` : baseUrl;
  }
  try {
    const u = new URL(url);
    if (u.origin === new URL(baseUrl).origin) return url;
  } catch {
    // not a URL: fall through
  }
  return baseUrl;
}

/** Auth.js passes `callbackUrl` absolute: its path when it is on `host`, else `/`. */
export function sameHostPath(url: string, host: string | null): string {
  if (url.startsWith('/')) return safeLocalPath(url);
  try {
    const u = new URL(url);
    if (host && u.host.toLowerCase() === host.toLowerCase() && (u.protocol === 'http:' || u.protocol === 'https:')) {
      return safeLocalPath(`${u.pathname}${u.search}`);
    }
  } catch {
    // not a URL
  }
  return '/';
}
