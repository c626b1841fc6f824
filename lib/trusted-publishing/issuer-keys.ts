// An issuer's signing keys, found the way OpenID Connect says (discovery document, then
// its jwks_uri), fetched through the net capability's guarded fetch: only the issuer's
// own host, only public addresses (DNS answers checked and pinned; loopback only with
// SKILLYARD_OIDC_ALLOW_PRIVATE=1), https unless that setting is on, small bodies, short
// deadlines, redirects re-checked. An owner configures the issuer, so this is the line
// between "a trusted publisher" and "make the registry fetch an internal URL".
import 'server-only';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { AppError } from '../errors';
import { netFetch } from '../runtime';
import { LOOPBACK_RANGES, type OidcSettings } from './oidc-settings';

const CACHE_MS = 10 * 60_000;
/** keys read this recently are not read again for a key they lack (a stranger's tokens with made-up key ids would fetch per request) */
const REFRESH_COOLDOWN_MS = 30_000;
const cache = new Map<string, { at: number; keys: ReturnType<typeof createLocalJWKSet> }>();

/** A configured issuer must be an https URL without credentials, query or fragment (http only for a development issuer). */
export function checkIssuerUrl(issuer: string, settings: OidcSettings): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new AppError('input/invalid', `"${issuer.slice(0, 100)}" is not an issuer URL.`);
  }
  const httpOk = settings.allowPrivateIssuers && url.protocol === 'http:';
  if ((url.protocol !== 'https:' && !httpOk) || url.username || url.password || url.search || url.hash) {
    throw new AppError('input/invalid', `The issuer must be an https URL with no credentials, query or fragment (got ${url.protocol}//${url.host}).`);
  }
  return url;
}

async function getJson(url: string, host: string, settings: OidcSettings): Promise<unknown> {
  try {
    const res = await netFetch(url, { headers: { accept: 'application/json' } }, [host], {
      maxBytes: 256 * 1024,
      timeoutMs: 5000,
      maxRedirects: 2,
      allowRanges: settings.allowPrivateIssuers ? LOOPBACK_RANGES : [],
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return JSON.parse(res.body);
  } catch (err) {
    throw new AppError('publish/oidc-issuer-unreachable', `The issuer's keys could not be read from ${url}: ${(err as Error).message}`);
  }
}

/** The issuer's key set (cached ten minutes; `fresh` reads it again, after a key the cache lacks, unless read in the last 30 s). */
export async function issuerKeys(issuer: string, settings: OidcSettings, fresh = false): Promise<ReturnType<typeof createLocalJWKSet>> {
  const url = checkIssuerUrl(issuer, settings);
  // keys read under one setting are not reused under a stricter one
  const cacheKey = `${settings.allowPrivateIssuers ? 'dev' : 'public'}|${issuer}`;
  const hit = cache.get(cacheKey);
  if (hit && Date.now() - hit.at < (fresh ? REFRESH_COOLDOWN_MS : CACHE_MS)) return hit.keys;
  const discovery = (await getJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, url.host, settings)) as { issuer?: unknown; jwks_uri?: unknown };
  if (discovery?.issuer !== issuer) throw new AppError('publish/oidc-issuer-unreachable', `The discovery document of ${issuer} names another issuer.`);
  if (typeof discovery.jwks_uri !== 'string') throw new AppError('publish/oidc-issuer-unreachable', `The discovery document of ${issuer} has no jwks_uri.`);
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(discovery.jwks_uri);
  } catch {
    throw new AppError('publish/oidc-issuer-unreachable', `The jwks_uri of ${issuer} is not a URL.`);
  }
  // the keys come from the issuer's own host: a discovery document cannot send us elsewhere
  if (jwksUrl.host !== url.host || jwksUrl.protocol !== url.protocol) throw new AppError('publish/oidc-issuer-unreachable', `The jwks_uri of ${issuer} is on another host.`);
  const jwks = (await getJson(jwksUrl.toString(), url.host, settings)) as JSONWebKeySet;
  if (!jwks || !Array.isArray(jwks.keys)) throw new AppError('publish/oidc-issuer-unreachable', `${jwksUrl} is not a JSON Web Key Set.`);
  const keys = createLocalJWKSet(jwks);
  if (cache.size >= 100) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, { at: Date.now(), keys });
  return keys;
}
