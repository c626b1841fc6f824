import { fetchRepos, type Capabilities } from './github';

export default async function list_my_repos(input: { visibility?: string; limit?: number }, capabilities: Capabilities) {
  const repos = await fetchRepos(capabilities, input.visibility ?? 'all', input.limit ?? 30);
  if ('error' in repos) return repos;
  return {
    repos: repos.map((r) => ({ fullName: r.full_name, description: r.description, private: r.private, language: r.language, stars: r.stargazers_count, pushedAt: r.pushed_at, url: r.html_url })),
  };
}
