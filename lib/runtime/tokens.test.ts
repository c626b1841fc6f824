import { afterAll, describe, expect, it } from 'vitest';
import { checkTokenGate } from './tokens';
import { closeSharedSandbox, createManager, sharedInProcessSandbox } from './testing/harness';
import { codeSkill, skill, tool } from './testing/skills';
import type { HeldToken } from './types';

afterAll(closeSharedSandbox);
const sb = () => sharedInProcessSandbox();
const HOUR = 3600_000;
const tok = (id: string, issuer: string, claims: string[], expiresAt: Date | null = null): HeldToken => ({ id, issuer, claims, expiresAt, secret: `secret-${id}` });
const past = new Date(Date.now() - HOUR);
const future = new Date(Date.now() + HOUR);

const listEmails = codeSkill('gmail', 'export default async (ctx) => ctx.tokens', {
  inputTokens: { '@malv/auth': { required: ['account'], allowExpired: [] }, '@malv/gmail': { required: ['gmail_access'], allowExpired: ['gmail_access'] } },
});

describe('token gate', () => {
  it('a caller lacking a required claim neither sees nor invokes the tool', async () => {
    const { manager } = createManager(sb(), [listEmails], { caller: { tokens: [tok('a', '@malv/auth', ['account'])] } });
    expect(manager.listVisibleTools()).toEqual([]);
    await expect(manager.invoke('gmail')).rejects.toMatchObject({
      code: 'token/missing',
      message: "tool 'gmail/gmail' requires tokens the caller lacks: @malv/gmail gmail_access",
    });
  });
  it('an expired token counts as lacking unless the claim is in allowExpired; then the tool gets the expired token', async () => {
    const expiredAuth = createManager(sb(), [listEmails], { caller: { tokens: [tok('a', '@malv/auth', ['account'], past), tok('g', '@malv/gmail', ['gmail_access'])] } });
    await expect(expiredAuth.manager.invoke('gmail')).rejects.toMatchObject({ code: 'token/expired' });
    const expiredGmail = createManager(sb(), [listEmails], { caller: { tokens: [tok('a', '@malv/auth', ['account'], future), tok('g', '@malv/gmail', ['gmail_access'], past)] } });
    const got = (await expiredGmail.manager.invoke('gmail')) as Array<{ id: string; expired: boolean; secret: string }>;
    expect(got.map((t) => [t.id, t.expired, t.secret])).toEqual([
      ['a', false, 'secret-a'],
      ['g', true, 'secret-g'],
    ]);
  });
  it("a token held only for one scope (a team's connection) reaches that scope's tools and no other's", async () => {
    const oidc = { inputTokens: { '@oauth/oidc': { required: ['api:read'], allowExpired: [] } } };
    const teamTool = { ...codeSkill('team-api', 'export default async (ctx) => ctx.tokens.map((t) => t.secret)', oidc), scope: 'acme' };
    const otherTool = { ...codeSkill('other-api', 'export default async (ctx) => ctx.tokens.map((t) => t.secret)', oidc), scope: 'mallory' };
    const lent: HeldToken = { ...tok('t', '@oauth/oidc', ['account', 'api:read']), onlyForScope: 'acme' };
    const { manager } = createManager(sb(), [teamTool, otherTool], { caller: { tokens: [lent] } });
    expect(await manager.invoke('team-api')).toEqual(['secret-t']);
    await expect(manager.invoke('other-api')).rejects.toMatchObject({ code: 'token/missing' });
    expect(manager.listVisibleTools().map((t) => t.name)).toEqual(['team-api']);
    expect(checkTokenGate(teamTool.manifest.tools[0], [lent]).ok).toBe(false); // no scope named: never
  });
  it('least privilege: a tool receives only the tokens it declares', async () => {
    const tokens = [tok('a', '@malv/auth', ['account']), tok('g', '@malv/gmail', ['gmail_access']), tok('gh', '@oauth/github', ['account', 'repo'])];
    const { manager } = createManager(sb(), [listEmails, codeSkill('plain', 'export default async (ctx) => ctx.tokens')], { caller: { tokens } });
    expect(((await manager.invoke('gmail')) as Array<{ id: string }>).map((t) => t.id)).toEqual(['a', 'g']);
    expect(await manager.invoke('plain')).toEqual([]);
  });
  it('prefers a live token over an expired one with the same claim', () => {
    const res = checkTokenGate(listEmails.manifest.tools[0], [
      tok('old', '@malv/gmail', ['gmail_access'], past),
      tok('new', '@malv/gmail', ['gmail_access'], future),
      tok('a', '@malv/auth', ['account']),
    ]);
    expect(res.ok && res.granted.map((t) => t.id)).toEqual(['a', 'new']);
  });
});

describe('minting', () => {
  const minter = (scope: string | null, issuer: string, claims: string[], declared: Record<string, { required: string[] }>) =>
    skill(
      'login',
      [
        tool('login-gmail', {
          capabilities: ['token'],
          outputTokens: declared,
          handler: {
            kind: 'inline-code',
            ref: `inline://code,export default async (ctx) => ctx.capabilities.token.mint({ issuer: ${JSON.stringify(issuer)}, claims: ${JSON.stringify(claims)} })`,
          },
        }),
      ],
      { scope },
    );
  it('mints under declared outputTokens of its own scope; the caller then holds the token', async () => {
    const { manager, providers } = createManager(sb(), [minter('malv', '@malv/gmail', ['gmail_access'], { '@malv/gmail': { required: ['gmail_access'] } }), listEmails], {
      caller: { tokens: [tok('a', '@malv/auth', ['account'])] },
    });
    expect(manager.listVisibleTools().map((t) => t.name)).toEqual(['login-gmail']);
    const minted = (await manager.invoke('login-gmail')) as { issuer: string; claims: string[] };
    expect(minted).toMatchObject({ issuer: '@malv/gmail', claims: ['gmail_access'], expiresAt: null });
    expect(providers.vault.minted).toHaveLength(1);
    expect(providers.vault.minted[0]).toMatchObject({ holderId: 'u1', issuer: '@malv/gmail' });
    expect(manager.listVisibleTools().map((t) => t.name)).toEqual(['login-gmail', 'gmail']);
    expect(((await manager.invoke('gmail')) as unknown[]).length).toBe(2);
  });
  it('refuses @oauth/*, undeclared issuers or claims, and issuers of another scope', async () => {
    const cases: Array<[ReturnType<typeof minter>, string]> = [
      [minter('oauth', '@oauth/github', ['account'], { '@oauth/github': { required: ['account'] } }), 'token/reserved-issuer'],
      [minter('malv', '@malv/other', ['x'], { '@malv/gmail': { required: ['gmail_access'] } }), 'token/not-declared'],
      [minter('malv', '@malv/gmail', ['admin'], { '@malv/gmail': { required: ['gmail_access'] } }), 'token/not-declared'],
      [minter('evil', '@malv/gmail', ['gmail_access'], { '@malv/gmail': { required: ['gmail_access'] } }), 'token/foreign-issuer'],
      [minter(null, '@malv/gmail', ['gmail_access'], { '@malv/gmail': { required: ['gmail_access'] } }), 'token/foreign-issuer'],
    ];
    for (const [s, code] of cases) {
      const { manager, providers } = createManager(sb(), [s]);
      await expect(manager.invoke('login-gmail')).rejects.toMatchObject({ code });
      expect(providers.vault.minted).toHaveLength(0);
    }
  });
});

describe('planner', () => {
  const gh = codeSkill('gh-issues', 'export default async () => 1', { inputTokens: { '@oauth/github': { required: ['account'], allowExpired: [] } } });
  const login = skill(
    'login',
    [tool('login-gmail', { outputTokens: { '@malv/gmail': { required: ['gmail_access'] } }, inputTokens: { '@oauth/google': { required: ['account'], allowExpired: [] } } })],
    { scope: 'malv' },
  );
  const impostor = skill('fake', [tool('fake-login', { outputTokens: { '@malv/gmail': { required: ['gmail_access'] } } })], { scope: 'evil' });
  it('names the OAuth login for @oauth issuers', () => {
    const { manager } = createManager(sb(), [gh]);
    expect(manager.plan('gh-issues')).toEqual({
      ref: 'gh-issues/gh-issues',
      usable: false,
      missing: [{ issuer: '@oauth/github', claim: 'account', reason: 'missing' }],
      unlocks: [
        {
          issuer: '@oauth/github',
          claims: ['account'],
          options: [{ kind: 'oauth', provider: 'github', issuer: '@oauth/github', claims: ['account'], label: 'log in with GitHub' }],
        },
      ],
    });
  });
  it("names tools whose outputTokens unlock it (only those able to mint in that scope), and whether they're usable now", () => {
    const { manager } = createManager(sb(), [listEmails, login, impostor], { caller: { tokens: [tok('a', '@malv/auth', ['account'])] } });
    const plan = manager.plan('gmail');
    expect(plan.usable).toBe(false);
    expect(plan.unlocks).toEqual([
      {
        issuer: '@malv/gmail',
        claims: ['gmail_access'],
        options: [
          { kind: 'tool', ref: 'login/login-gmail', issuer: '@malv/gmail', claims: ['gmail_access'], usable: false, label: 'run login-gmail (it issues @malv/gmail gmail_access)' },
        ],
      },
    ]);
    expect(manager.plan('login-gmail').unlocks[0].options[0]).toMatchObject({ kind: 'oauth', label: 'log in with Google' });
  });
  it('a usable tool has an empty plan', () => {
    const { manager } = createManager(sb(), [gh], { caller: { tokens: [tok('g', '@oauth/github', ['account'])] } });
    expect(manager.plan('gh-issues')).toEqual({ ref: 'gh-issues/gh-issues', usable: true, missing: [], unlocks: [] });
  });
});
