import { describe, expect, it } from 'vitest';
import type { ToolManifest } from '../skills/types';
import { unlockLabel, unlockPlan } from './unlock-plan';
import type { ProviderSpec } from '../auth/provider-config';

const tool = (name: string, inputTokens: ToolManifest['inputTokens'] = {}) => ({ name, inputTokens, visibility: 'public' }) as unknown as ToolManifest;
const github = { id: 'github', name: 'GitHub', kind: 'github', clientId: 'x', clientSecret: 'y', scopes: [], signIn: true, tokenAuth: 'client_secret_post' } as ProviderSpec;
const repo = { '@oauth/github': { required: ['account', 'repo:read'], allowExpired: [] } };

describe('unlock plan', () => {
  const tools = [
    tool('plain'),
    tool('list-repos', repo),
    tool('search-repos', repo),
    tool('issues', { '@oauth/github': { required: ['issues'], allowExpired: [] } }),
    tool('notes', { '@acme/notebook': { required: ['open'], allowExpired: [] } }),
    tool('jira', { '@oauth/jira': { required: ['read'], allowExpired: [] } }),
  ];

  it('groups locked tools by provider with the scopes they need', () => {
    const plan = unlockPlan(tools, [], [github]);
    expect(plan.locked[0]).toMatchObject({
      provider: 'github',
      configured: true,
      scopes: ['repo:read', 'issues'],
      tools: ['list-repos', 'search-repos', 'issues'],
      reconnect: false,
    });
    expect(unlockLabel(plan.locked[0])).toBe('Connect GitHub with repo:read, issues to unlock 3 tools');
    expect(plan.locked[1]).toMatchObject({ provider: 'jira', configured: false, name: 'Jira' });
    // a provider this server does not configure is still spelled as it spells itself
    expect(unlockPlan(tools, [], [])).toMatchObject({ locked: [{ provider: 'github', name: 'GitHub', configured: false }, { provider: 'jira' }] });
    expect(plan.lockedByTool).toEqual([{ tool: 'notes', issuer: '@acme/notebook', claims: ['open'] }]);
    expect(plan.unlocked).toEqual([]);
  });

  it('says what is unlocked and what a reconnect would add', () => {
    const held = [{ id: '1', issuer: '@oauth/github', claims: ['account', 'repo:read'], expiresAt: null, secret: '' }];
    const plan = unlockPlan(tools, held, [github]);
    expect(plan.unlocked).toEqual(['list-repos', 'search-repos']);
    expect(plan.locked[0]).toMatchObject({ provider: 'github', scopes: ['issues'], tools: ['issues'], reconnect: true });
    expect(unlockLabel(plan.locked[0])).toBe('Your GitHub connection lacks issues: connect GitHub again with issues to unlock 1 tool');
  });

  it('counts an expired token as locked', () => {
    const held = [{ id: '1', issuer: '@oauth/github', claims: ['account', 'repo:read', 'issues'], expiresAt: new Date(0), secret: '' }];
    const plan = unlockPlan(tools, held, [github]);
    expect(plan.unlocked).toEqual([]);
    expect(plan.locked[0].tools).toHaveLength(3);
  });
});
