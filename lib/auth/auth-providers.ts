// Turns the configured providers (provider-config.ts) into Auth.js providers, plus the
// email sign-in that is always there (the fallback when nothing else is configured).
import 'server-only';
import type { Provider } from 'next-auth/providers';
import GitHub from 'next-auth/providers/github';
import Google from 'next-auth/providers/google';
import GitLab from 'next-auth/providers/gitlab';
import { emailProvider } from './email-sign-in';
import type { ProviderSpec } from './provider-config';

type Profile = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

function toAuthProvider(spec: ProviderSpec): Provider {
  const scope = spec.scopes.join(' ');
  // state and PKCE on every provider; never link an account by its e-mail address
  const common = {
    clientId: spec.clientId,
    clientSecret: spec.clientSecret,
    allowDangerousEmailAccountLinking: false,
    checks: ['pkce', 'state'] as Array<'pkce' | 'state'>,
  };
  switch (spec.kind) {
    case 'github':
      return GitHub({ ...common, authorization: { params: { scope } } });
    case 'google':
      return Google({ ...common, authorization: { params: { scope, access_type: 'offline', include_granted_scopes: 'true' } } });
    case 'gitlab':
      return GitLab({
        ...common,
        authorization: { url: spec.authorizeUrl, params: { scope } },
        token: spec.tokenUrl,
        userinfo: spec.userinfoUrl,
      });
    case 'oidc':
      return {
        ...common,
        id: spec.id,
        name: spec.name,
        type: 'oidc',
        issuer: spec.issuer,
        authorization: { params: { scope } },
        client: { token_endpoint_auth_method: spec.tokenAuth },
      };
    case 'oauth':
      return {
        ...common,
        id: spec.id,
        name: spec.name,
        type: 'oauth',
        authorization: { url: spec.authorizeUrl, params: { scope } },
        token: spec.tokenUrl,
        userinfo: spec.userinfoUrl,
        client: { token_endpoint_auth_method: spec.tokenAuth },
        profile(p: Profile) {
          const id = str(p.sub) ?? (p.id !== undefined ? String(p.id) : null);
          if (!id) throw new Error(`the ${spec.name} user info has neither "sub" nor "id"`);
          return { id, name: str(p.name) ?? str(p.login) ?? str(p.username), email: str(p.email), image: str(p.avatar_url) ?? str(p.picture) };
        },
      };
  }
}

export function authProviders(specs: ProviderSpec[]): Provider[] {
  return [...specs.map(toAuthProvider), emailProvider()];
}
