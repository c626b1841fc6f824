// The bundled skills/github-repos, the example of a tool gated by the @oauth/github
// connection: its handlers against a stand-in for GitHub's API (token list, bearer,
// User-Agent, errors), and the skill in the real kernel and sandbox: locked without the
// connection, and with it a call that goes to api.github.com (the manifest's only host).
import { afterAll, describe, expect, it } from 'vitest';
import { createToolManager, type HeldToken } from '../runtime';
import { closeSharedSandbox, sharedInProcessSandbox } from '../runtime/testing/harness';
import { loadSkillFolder } from '../runtime/testing/skill-folder';
import listMyRepos from '../../skills/github-repos/src/tools/list_my_repos';
import searchMyRepos from '../../skills/github-repos/src/tools/search_my_repos';
import type { Capabilities, NetResponse } from '../../skills/github-repos/src/tools/github';

const TOKEN = 'gho_exampleexampleexample1234';
const REPOS = [
  {
    full_name: 'erin/notes',
    description: 'Daily notes',
    private: true,
    language: 'Markdown',
    stargazers_count: 0,
    pushed_at: '2026-11-20T10:00:00Z',
    html_url: 'https://github.com/erin/notes',
    topics: ['journal'],
  },
  {
    full_name: 'erin/skillyard-demo',
    description: null,
    private: false,
    language: 'TypeScript',
    stargazers_count: 7,
    pushed_at: '2026-11-19T10:00:00Z',
    html_url: 'https://github.com/erin/skillyard-demo',
  },
];

/** A stand-in for api.github.com: 401 unless the bearer is TOKEN and a User-Agent is sent. */
function fakeGithub(claims = ['account', 'read:user']) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const capabilities: Capabilities = {
    tokens: [{ issuer: '@oauth/github', claims, expired: false, secret: TOKEN }],
    net: {
      async fetch(url, init): Promise<NetResponse> {
        const headers = init?.headers ?? {};
        calls.push({ url, headers });
        const ok = headers.authorization === `Bearer ${TOKEN}` && !!headers['user-agent'];
        return { ok, status: ok ? 200 : 401, json: async () => (ok ? REPOS : { message: 'Bad credentials' }) };
      },
    },
  };
  return { capabilities, calls };
}

describe('github-repos handlers', () => {
  it('list_my_repos calls GET /user/repos with the connection as bearer and maps the answer', async () => {
    const { capabilities, calls } = fakeGithub(['account', 'repo']);
    const out = await listMyRepos({ limit: 5 }, capabilities);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://api.github.com/user/repos?sort=pushed&visibility=all&per_page=5');
    expect(calls[0].headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, accept: 'application/vnd.github+json' });
    expect(out).toEqual({
      repos: [
        {
          fullName: 'erin/notes',
          description: 'Daily notes',
          private: true,
          language: 'Markdown',
          stars: 0,
          pushedAt: '2026-11-20T10:00:00Z',
          url: 'https://github.com/erin/notes',
        },
        {
          fullName: 'erin/skillyard-demo',
          description: null,
          private: false,
          language: 'TypeScript',
          stars: 7,
          pushedAt: '2026-11-19T10:00:00Z',
          url: 'https://github.com/erin/skillyard-demo',
        },
      ],
    });
  });

  it('says when private repositories are left out (no repo scope), and clamps the page size', async () => {
    const { capabilities, calls } = fakeGithub();
    const out = await listMyRepos({ limit: 500 }, capabilities);
    expect(calls[0].url).toContain('per_page=100');
    expect(out).toMatchObject({ note: expect.stringContaining('"repo" scope') });
  });

  it('search_my_repos matches every word in name, description or topics', async () => {
    const { capabilities } = fakeGithub(['account', 'repo']);
    expect(await searchMyRepos({ query: 'Journal erin' }, capabilities)).toEqual({
      repos: [{ fullName: 'erin/notes', description: 'Daily notes', url: 'https://github.com/erin/notes' }],
    });
    expect(await searchMyRepos({ query: 'nothing-like-this' }, capabilities)).toEqual({ repos: [] });
  });

  it('answers with an error, not a crash, for a refused token, a missing connection or no network', async () => {
    const refused = fakeGithub();
    refused.capabilities.tokens[0].secret = 'gho_revoked';
    expect(await listMyRepos({}, refused.capabilities)).toEqual({ error: expect.stringContaining('connect GitHub again') });
    expect(await listMyRepos({}, { ...refused.capabilities, tokens: [] })).toEqual({ error: expect.stringContaining('no GitHub connection') });
    const offline = fakeGithub();
    offline.capabilities.net.fetch = () => Promise.reject(new Error('net.fetch: cannot resolve api.github.com'));
    expect(await searchMyRepos({ query: 'x' }, offline.capabilities)).toEqual({ error: 'could not reach GitHub: net.fetch: cannot resolve api.github.com' });
  });
});

describe('github-repos in the kernel', () => {
  afterAll(closeSharedSandbox);

  async function manager(tokens: HeldToken[], resolved: string[]) {
    const skills = [await loadSkillFolder('skills/github-repos', 'skillyard')];
    return createToolManager({
      skills,
      caller: { id: 'user:erin', kind: 'user', tokens },
      sandbox: sharedInProcessSandbox(),
      providers: {
        // no real network in tests: the resolver records the host and answers nothing
        net: { resolve: async (host) => (resolved.push(host), []) },
      },
    });
  }

  it('is locked without an @oauth/github connection, and calls api.github.com with one', async () => {
    const resolved: string[] = [];
    const locked = await manager([], resolved);
    expect(locked.listVisibleTools().map((t) => t.name)).not.toContain('list-my-repos');
    await expect(locked.invoke('list-my-repos', {})).rejects.toMatchObject({ code: 'token/missing' });

    const github: HeldToken = { id: 't1', issuer: '@oauth/github', claims: ['account', 'read:user'], expiresAt: null, secret: TOKEN };
    const unlocked = await manager([github], resolved);
    expect(unlocked.listVisibleTools().map((t) => t.name)).toEqual(expect.arrayContaining(['list-my-repos', 'search-my-repos']));
    const out = await unlocked.invoke('list-my-repos', { visibility: 'public' });
    // the manifest lets it reach api.github.com (and nothing else): the request got as far as DNS
    expect(resolved).toEqual(['api.github.com']);
    expect(out).toEqual({ error: 'could not reach GitHub: net.fetch: api.github.com has no address' });
    // a bad argument is refused by the input schema before the tool runs
    await expect(unlocked.invoke('list-my-repos', { visibility: 'secret' })).rejects.toMatchObject({ code: 'params/invalid' });
  });
});
