// Shared by both tools: one GitHub REST call through the granted `net` capability, with the
// user's @oauth/github access token as the bearer. The platform hands a tool only the tokens
// it declares in `input_tokens`, as a list of { issuer, claims, expired, secret }.
export type GrantedToken = { issuer: string; claims: string[]; expired: boolean; secret: string };
export type NetResponse = { ok: boolean; status: number; json(): Promise<unknown> };
export type Capabilities = {
  net: { fetch(url: string, init?: { headers?: Record<string, string> }): Promise<NetResponse> };
  tokens: GrantedToken[];
};

export type GithubRepo = {
  full_name: string;
  description: string | null;
  private: boolean;
  language: string | null;
  stargazers_count: number;
  pushed_at: string | null;
  html_url: string;
  topics?: string[];
};

export const API = 'https://api.github.com';

export function githubToken(capabilities: Capabilities): GrantedToken | null {
  return capabilities.tokens.find((t) => t.issuer === '@oauth/github') ?? null;
}

/** The user's repositories, most recently pushed first (one page of up to 100). */
export async function fetchRepos(capabilities: Capabilities, visibility: string, perPage: number): Promise<GithubRepo[] | { error: string }> {
  const token = githubToken(capabilities);
  if (!token) return { error: 'no GitHub connection: sign in with GitHub or connect it in Settings' };
  // (plain string building: the sandbox has no URLSearchParams)
  const query = `sort=pushed&visibility=${encodeURIComponent(visibility)}&per_page=${perPage}`;
  let res: NetResponse;
  try {
    res = await capabilities.net.fetch(`${API}/user/repos?${query}`, {
      headers: {
        authorization: `Bearer ${token.secret}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        // GitHub refuses API requests without a User-Agent
        'user-agent': 'skillyard-github-repos',
      },
    });
  } catch (err) {
    return { error: `could not reach GitHub: ${(err as Error).message}` };
  }
  if (res.status === 401) return { error: 'GitHub refused the token (revoked or expired): connect GitHub again' };
  if (!res.ok) return { error: `GitHub answered ${res.status}` };
  const body = await res.json();
  return Array.isArray(body) ? (body as GithubRepo[]) : { error: 'GitHub answered with something other than a list of repositories' };
}

/** Private repositories are listed only when the connection granted the `repo` scope. */
export function privateNote(capabilities: Capabilities): string | undefined {
  const claims = githubToken(capabilities)?.claims ?? [];
  return claims.includes('repo') ? undefined : 'Private repositories need the "repo" scope, which this GitHub connection did not grant.';
}
