import { describe, expect, it } from 'vitest';
import { providersFromEnv, scopesToRequest } from './provider-config';

describe('providers from the environment', () => {
  it('offers nothing but e-mail when nothing is configured', () => {
    expect(providersFromEnv({})).toEqual([]);
  });

  it('reads GitHub, Google, GitLab and a generic OIDC issuer', () => {
    const specs = providersFromEnv({
      SKILLYARD_GITHUB_ID: 'gh',
      SKILLYARD_GITHUB_SECRET: 's1',
      AUTH_GOOGLE_ID: 'go',
      AUTH_GOOGLE_SECRET: 's2',
      SKILLYARD_GITLAB_ID: 'gl',
      SKILLYARD_GITLAB_SECRET: 's3',
      SKILLYARD_GITLAB_URL: 'https://git.corp.example/',
      SKILLYARD_OIDC_ID: 'oi',
      SKILLYARD_OIDC_SECRET: 's4',
      SKILLYARD_OIDC_ISSUER: 'https://id.example/',
      SKILLYARD_OIDC_NAME: 'Corp ID',
    });
    expect(specs.map((s) => s.id)).toEqual(['github', 'google', 'gitlab', 'oidc']);
    expect(specs[2].tokenUrl).toBe('https://git.corp.example/oauth/token');
    expect(specs[3]).toMatchObject({ name: 'Corp ID', issuer: 'https://id.example', kind: 'oidc', tokenAuth: 'client_secret_basic' });
    expect(specs[3].scopes).toContain('offline_access');
  });

  it('ignores a provider with a missing secret', () => {
    expect(providersFromEnv({ SKILLYARD_GITHUB_ID: 'gh' })).toEqual([]);
  });

  it('reads plain OAuth 2 providers from JSON and says what is wrong', () => {
    const ok = providersFromEnv({
      SKILLYARD_OAUTH_PROVIDERS: JSON.stringify([
        {
          id: 'linear',
          name: 'Linear',
          clientId: 'a',
          clientSecret: 'b',
          authorizeUrl: 'https://linear.app/oauth/authorize',
          tokenUrl: 'https://api.linear.app/oauth/token',
          userinfoUrl: 'https://api.linear.app/me',
          scopes: ['read'],
        },
      ]),
    });
    expect(ok[0]).toMatchObject({ id: 'linear', kind: 'oauth', signIn: false, scopes: ['read'] });
    expect(() => providersFromEnv({ SKILLYARD_OAUTH_PROVIDERS: '{' })).toThrow(/not valid JSON/);
    expect(() => providersFromEnv({ SKILLYARD_OAUTH_PROVIDERS: JSON.stringify([{ id: 'x', name: 'X', clientId: 'a', clientSecret: 'b' }]) })).toThrow(/issuer or both/);
    expect(() => providersFromEnv({ SKILLYARD_OAUTH_PROVIDERS: JSON.stringify([{ id: 'Bad Id', name: 'X', clientId: 'a', clientSecret: 'b' }]) })).toThrow(/at 0.id/);
    expect(() =>
      providersFromEnv({
        SKILLYARD_GITHUB_ID: 'gh',
        SKILLYARD_GITHUB_SECRET: 's',
        SKILLYARD_OAUTH_PROVIDERS: JSON.stringify([{ id: 'github', name: 'X', clientId: 'a', clientSecret: 'b', issuer: 'https://x.example' }]),
      }),
    ).toThrow(/configured twice/);
  });

  it('asks for the provider scopes plus what the tools need, never "account"', () => {
    const [spec] = providersFromEnv({ SKILLYARD_GITHUB_ID: 'gh', SKILLYARD_GITHUB_SECRET: 's' });
    expect(scopesToRequest(spec, ['account', 'repo', 'read:user'])).toEqual(['read:user', 'user:email', 'repo']);
  });
});
