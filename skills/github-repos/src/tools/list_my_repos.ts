import { fetchRepos, privateNote, type Capabilities } from './github';

export default async function list_my_repos(input: { visibility?: 'all' | 'public' | 'private'; limit?: number }, capabilities: Capabilities) {
  const visibility = input.visibility ?? 'all';
  const repos = await fetchRepos(capabilities, visibility, Math.min(Math.max(input.limit ?? 30, 1), 100));
  if ('error' in repos) return repos;
  const note = visibility === 'public' ? undefined : privateNote(capabilities);
  return {
    repos: repos.map((r) => ({
      fullName: r.full_name,
      description: r.description,
      private: r.private,
      language: r.language,
      stars: r.stargazers_count,
      pushedAt: r.pushed_at,
      url: r.html_url,
    })),
    ...(note ? { note } : {}),
  };
}
