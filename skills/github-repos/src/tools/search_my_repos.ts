import { fetchRepos, privateNote, type Capabilities, type GithubRepo } from './github';

const haystack = (r: GithubRepo) => [r.full_name, r.description ?? '', ...(r.topics ?? [])].join(' ').toLowerCase();

export default async function search_my_repos(input: { query: string }, capabilities: Capabilities) {
  const repos = await fetchRepos(capabilities, 'all', 100);
  if ('error' in repos) return repos;
  const words = input.query.toLowerCase().split(/\s+/).filter(Boolean);
  const note = privateNote(capabilities);
  return {
    repos: repos.filter((r) => words.every((w) => haystack(r).includes(w))).map((r) => ({ fullName: r.full_name, description: r.description, url: r.html_url })),
    ...(note ? { note } : {}),
  };
}
