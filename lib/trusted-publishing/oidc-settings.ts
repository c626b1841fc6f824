// Trusted publishing settings (docs/trust.md; declared and parsed in lib/config, their
// meaning in docs/configuration.md): the audience, loopback issuers (tests, a local
// development issuer; never on a public registry), more GitHub-like issuers (GitHub's own
// is always one), the lifetime of a CI's publish token.
import { setting, type Env } from '../config';

export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';
export const GITLAB_ISSUER = 'https://gitlab.com';

export type OidcSettings = {
  audience: string;
  allowPrivateIssuers: boolean;
  githubIssuers: string[];
  tokenMinutes: number;
};

/** The settings of this process, or of `env` when given (tests). */
export function oidcSettings(env?: Env): OidcSettings {
  return {
    audience: setting('SKILLYARD_OIDC_AUDIENCE', env),
    allowPrivateIssuers: setting('SKILLYARD_OIDC_ALLOW_PRIVATE', env),
    githubIssuers: [GITHUB_ACTIONS_ISSUER, ...setting('SKILLYARD_OIDC_GITHUB_ISSUERS', env)],
    tokenMinutes: setting('SKILLYARD_OIDC_TOKEN_MINUTES', env),
  };
}

/** Loopback ranges a development issuer may use (only with SKILLYARD_OIDC_ALLOW_PRIVATE=1). */
export const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'];
