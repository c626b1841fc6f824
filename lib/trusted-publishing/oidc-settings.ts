// Trusted publishing settings (docs/trust.md):
//   SKILLYARD_OIDC_AUDIENCE        the `aud` a CI token must carry (default `skillyard`)
//   SKILLYARD_OIDC_ALLOW_PRIVATE   `1`: issuers on loopback addresses are allowed (tests, a
//                                  local development issuer); never on a public registry
//   SKILLYARD_OIDC_GITHUB_ISSUERS  more issuers whose tokens read like GitHub Actions' (links
//                                  to github.com commits); GitHub's own is always one
//   SKILLYARD_OIDC_TOKEN_MINUTES   lifetime of the publish token a CI gets (default 15, at most 60)

export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';
export const GITLAB_ISSUER = 'https://gitlab.com';

export type OidcSettings = {
  audience: string;
  allowPrivateIssuers: boolean;
  githubIssuers: string[];
  tokenMinutes: number;
};

export function oidcSettings(env: Record<string, string | undefined> = process.env): OidcSettings {
  const minutes = Number(env.SKILLYARD_OIDC_TOKEN_MINUTES);
  return {
    audience: env.SKILLYARD_OIDC_AUDIENCE?.trim() || 'skillyard',
    allowPrivateIssuers: env.SKILLYARD_OIDC_ALLOW_PRIVATE === '1',
    githubIssuers: [GITHUB_ACTIONS_ISSUER, ...(env.SKILLYARD_OIDC_GITHUB_ISSUERS ?? '').split(/[\s,]+/).filter(Boolean)],
    tokenMinutes: Number.isFinite(minutes) && minutes > 0 ? Math.min(minutes, 60) : 15,
  };
}

/** Loopback ranges a development issuer may use (only with SKILLYARD_OIDC_ALLOW_PRIVATE=1). */
export const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'];
