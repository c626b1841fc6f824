// Which OAuth/OIDC providers this server offers, read from the environment (docs/configuration.md,
// docs/sign-in.md). Pure: the next-auth wiring and the token refresher both
// read this one list, so sign-in, connect and refresh always agree.
import 'server-only';
import { z } from 'zod';
import { setting, type Env, type SettingName } from '../config';

export type ProviderSpec = {
  /** the Auth.js provider id, and the issuer `@oauth/<id>` of the tokens it mints */
  id: string;
  name: string;
  kind: 'github' | 'google' | 'gitlab' | 'oidc' | 'oauth';
  clientId: string;
  clientSecret: string;
  /** OIDC: the issuer URL (discovery at `<issuer>/.well-known/openid-configuration`) */
  issuer?: string;
  /** plain OAuth 2 (and GitHub/GitLab/Google defaults) */
  authorizeUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
  /** scopes always asked for at sign-in or connect */
  scopes: string[];
  /** false: offered only as a connection by a signed-in user, never as a sign-in */
  signIn: boolean;
  /** how the client authenticates at the token endpoint (refresh) */
  tokenAuth: 'client_secret_basic' | 'client_secret_post';
};

const ID = /^[a-z][a-z0-9-]{0,31}$/;

const ExtraProvider = z.object({
  id: z.string().regex(ID, 'a provider id is lowercase letters, digits and "-"'),
  name: z.string().min(1).max(60),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  issuer: z.url().optional(),
  authorizeUrl: z.url().optional(),
  tokenUrl: z.url().optional(),
  userinfoUrl: z.url().optional(),
  scopes: z.array(z.string().min(1)).default([]),
  signIn: z.boolean().default(false),
  tokenAuth: z.enum(['client_secret_basic', 'client_secret_post']).default('client_secret_basic'),
});

const words = (v: string | undefined) => (v ?? '').split(/[\s,]+/).filter(Boolean);

/** The configured providers; a malformed SKILLYARD_OAUTH_PROVIDERS throws with the reason. */
export function providersFromEnv(env?: Env): ProviderSpec[] {
  const get = <N extends SettingName>(name: N) => setting(name, env);
  const out: ProviderSpec[] = [];
  const pair = (name: 'GITHUB' | 'GOOGLE' | 'GITLAB' | 'OIDC') => {
    const id = get(`SKILLYARD_${name}_ID`) ?? get(`AUTH_${name}_ID`);
    const secret = get(`SKILLYARD_${name}_SECRET`) ?? get(`AUTH_${name}_SECRET`);
    return id && secret ? { clientId: id, clientSecret: secret } : null;
  };
  const github = pair('GITHUB');
  if (github) {
    out.push({
      id: 'github',
      name: 'GitHub',
      kind: 'github',
      ...github,
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      scopes: words(get('SKILLYARD_GITHUB_SCOPES')),
      signIn: true,
      tokenAuth: 'client_secret_post',
    });
  }
  const google = pair('GOOGLE');
  if (google) {
    out.push({
      id: 'google',
      name: 'Google',
      kind: 'google',
      ...google,
      issuer: 'https://accounts.google.com',
      scopes: words(get('SKILLYARD_GOOGLE_SCOPES')),
      signIn: true,
      tokenAuth: 'client_secret_post',
    });
  }
  const gitlab = pair('GITLAB');
  if (gitlab) {
    const base = get('SKILLYARD_GITLAB_URL').replace(/\/+$/, '');
    out.push({
      id: 'gitlab',
      name: 'GitLab',
      kind: 'gitlab',
      ...gitlab,
      authorizeUrl: `${base}/oauth/authorize`,
      tokenUrl: `${base}/oauth/token`,
      userinfoUrl: `${base}/api/v4/user`,
      scopes: words(get('SKILLYARD_GITLAB_SCOPES')),
      signIn: true,
      tokenAuth: 'client_secret_post',
    });
  }
  const oidc = pair('OIDC');
  const issuer = get('SKILLYARD_OIDC_ISSUER');
  if (oidc && issuer) {
    const id = get('SKILLYARD_OIDC_PROVIDER_ID');
    if (!ID.test(id)) throw new Error(`SKILLYARD_OIDC_PROVIDER_ID "${id}" must be lowercase letters, digits and "-"`);
    out.push({
      id,
      name: get('SKILLYARD_OIDC_NAME'),
      kind: 'oidc',
      ...oidc,
      issuer: issuer.replace(/\/+$/, ''),
      scopes: words(get('SKILLYARD_OIDC_SCOPES')),
      signIn: true,
      tokenAuth: get('SKILLYARD_OIDC_TOKEN_AUTH') === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic',
    });
  }
  const extra = get('SKILLYARD_OAUTH_PROVIDERS');
  if (extra) {
    let raw: unknown;
    try {
      raw = JSON.parse(extra);
    } catch {
      throw new Error('SKILLYARD_OAUTH_PROVIDERS is not valid JSON (expected an array of providers)');
    }
    const parsed = z.array(ExtraProvider).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`SKILLYARD_OAUTH_PROVIDERS: ${issue.message} at ${issue.path.join('.')}`);
    }
    for (const p of parsed.data) {
      if (!p.issuer && !(p.authorizeUrl && p.tokenUrl)) {
        throw new Error(`SKILLYARD_OAUTH_PROVIDERS: provider "${p.id}" needs an issuer or both authorizeUrl and tokenUrl`);
      }
      if (!p.issuer && !p.userinfoUrl) {
        throw new Error(`SKILLYARD_OAUTH_PROVIDERS: provider "${p.id}" needs a userinfoUrl (who connected) unless it is OIDC`);
      }
      out.push({ ...p, kind: p.issuer ? 'oidc' : 'oauth' });
    }
  }
  const seen = new Set<string>();
  for (const p of out) {
    if (seen.has(p.id) || p.id === 'email') throw new Error(`OAuth provider id "${p.id}" is configured twice`);
    seen.add(p.id);
  }
  return out;
}

/** The provider's scopes plus the ones a chosen tool needs (incremental consent). */
export function scopesToRequest(spec: ProviderSpec, extra: string[]): string[] {
  const claims = extra.filter((s) => s !== 'account');
  return [...new Set([...spec.scopes, ...claims])];
}
