import { fetchRepos, type Capabilities } from './github';

export default async function search_my_repos(input: { query: string }, capabilities: Capabilities) {
  const repos = await fetchRepos(capabilities, 'all', 100);
  if ('error' in repos) return repos;
  const words = input.query.toLowerCase().split(/\s+/).filter(Boolean);
  const hay = (r: (typeof repos)[number]) => [r.full_name, r.description ?? '', ...(r.topics ?? [])].join(' ').toLowerCase();
  return { repos: repos.filter((r) => words.every((w) => hay(r).includes(w))).map((r) => ({ fullName: r.full_name, description: r.description, url: r.html_url })) };
}
