// Shared by both tools: one GitHub API call through the granted `net` capability.
export type Capabilities = {
  net: { fetch(url: string, init?: { headers?: Record<string, string> }): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }> };
  tokens: Record<string, { secret: string } | undefined>;
};

export type GithubRepo = { full_name: string; description: string | null; private: boolean; language: string | null; stargazers_count: number; pushed_at: string; html_url: string; topics?: string[] };

export async function fetchRepos(capabilities: Capabilities, visibility: string, perPage: number): Promise<GithubRepo[] | { error: string }> {
  const token = capabilities.tokens['@oauth/github']?.secret;
  if (!token) return { error: 'no GitHub login: sign in with GitHub first' };
  const url = `https://api.github.com/user/repos?sort=pushed&visibility=${encodeURIComponent(visibility)}&per_page=${perPage}`;
  const res = await capabilities.net.fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' } });
  if (!res.ok) return { error: res.status === 401 ? 'the GitHub login expired: sign in again' : `GitHub answered ${res.status}` };
  return (await res.json()) as GithubRepo[];
}
