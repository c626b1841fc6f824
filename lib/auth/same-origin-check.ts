// Whether a request's Origin is this site (the Host, or X-Forwarded-Host behind a proxy).
import 'server-only';
export function isSameOrigin(origin: string | null, host: string | null, forwardedHost: string | null): boolean {
  if (!origin) return false;
  try {
    const o = new URL(origin);
    const expected = (forwardedHost ?? host ?? '').split(',')[0].trim().toLowerCase();
    return !!expected && o.host.toLowerCase() === expected;
  } catch {
    return false;
  }
}
