// Every exported server action under app/ and lib/ (every export of a 'use server' module),
// listed with how it is authorized. The list fails when a new action appears without an entry.
// Every action is built with the one chain (lib/actions/server-action.ts): its origin check
// must run inside serverAction, so an action that opens by itself fails here.
// Each action is called three ways, with Next.js's request APIs replaced by stand-ins:
// - from another site: the origin check (CSRF) is the first thing it does, and nothing
//   else of ours runs (no session read, no sign-in, no team lookup);
// - anonymously from this site: refused (sign-in redirect or error), unless the entry says
//   why an anonymous caller may use it, with an authorization case of its own where there
//   is a resource to protect (a private run, a private skill);
// - as a stranger to a team: every team action refuses, as for a team that does not exist.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { AppError, isAppError } from '../lib/errors';
import { seedBundledSkills } from '../lib/registry/seed-bundled-skills';
import { newRunId } from '../lib/runs/run-id';

type Call = 'origin' | 'origin outside the chain' | 'currentUser' | 'signIn' | 'signOut';
const calls: Call[] = [];
/** how many serverAction-built functions are running now (the actions run one at a time) */
let inChain = 0;
const request = {
  origin: 'http://127.0.0.1:3999',
  host: '127.0.0.1:3999',
  user: null as null | { id: string; handle: string | null; name: string | null; email: string | null; image: null },
};

vi.mock('../lib/auth/same-origin', () => ({
  assertSameOrigin: vi.fn(async () => {
    calls.push(inChain > 0 ? 'origin' : 'origin outside the chain');
    if (new URL(request.origin).host !== request.host) throw new AppError('auth/forbidden', 'This request did not come from this site.');
  }),
  isSameOrigin: () => true,
}));
vi.mock('../lib/session/current-user', () => ({
  currentUser: vi.fn(async () => {
    calls.push('currentUser');
    return request.user;
  }),
}));
vi.mock('../lib/session/auth', () => ({
  auth: vi.fn(async () => null),
  signIn: vi.fn(async () => {
    calls.push('signIn');
  }),
  signOut: vi.fn(async () => {
    calls.push('signOut');
  }),
}));
vi.mock('next/headers', () => ({
  headers: async () => new Headers({ origin: request.origin, host: request.host, 'x-forwarded-for': '198.51.100.77' }),
  cookies: async () => ({ get: () => undefined, set: () => {}, getAll: () => [] }),
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
// the real chain, counting the actions it runs (to tell the chain's origin check from an action's own)
vi.mock('../lib/actions/server-action', async (importOriginal) => {
  const real = await importOriginal<typeof import('../lib/actions/server-action')>();
  const serverAction = (spec: Parameters<typeof real.serverAction>[0], run: Parameters<typeof real.serverAction>[1]) => {
    const action = real.serverAction(spec, run);
    return async (raw?: unknown) => {
      inChain++;
      try {
        return await action(raw);
      } finally {
        inChain--;
      }
    };
  };
  return { ...real, serverAction };
});

type Action = (...args: unknown[]) => Promise<unknown>;
type Entry = {
  /** refused for an anonymous caller, or why an anonymous caller may use it */
  anonymous: 'refused' | { allowed: string; check?: (fn: Action) => Promise<void> };
  /** a team action: a signed-in stranger to the team is refused as if it did not exist */
  team?: true | { anyPerson: string };
  /** arguments besides a form (default: a form, after a previous state where it takes one) */
  args?: () => unknown[];
};

const FORM = 'form';
const withState: Entry['args'] = () => [{ ok: false, error: null }, FORM];

const ACTIONS: Record<string, Entry> = {
  'app/(account)/_actions/cli-login.ts#answerCliLogin': { anonymous: 'refused', args: withState },
  'app/(account)/_actions/connections.ts#connectProvider': {
    anonymous: { allowed: 'a Connect button is also a sign-in button; Auth.js links to the signed-in user only, and PKCE + state bind the callback' },
  },
  'app/(account)/_actions/connections.ts#disconnectProvider': { anonymous: 'refused' },
  'app/(account)/_actions/settings.ts#createApiTokenAction': { anonymous: 'refused', args: withState },
  'app/(account)/_actions/settings.ts#revokeApiTokenAction': { anonymous: 'refused' },
  'app/(account)/_actions/settings.ts#setModelKeyAction': { anonymous: 'refused', args: withState },
  'app/(account)/_actions/settings.ts#deleteModelKeyAction': { anonymous: 'refused' },
  'app/(account)/_actions/settings.ts#deleteAccountAction': { anonymous: 'refused', args: withState },
  'app/(account)/_actions/sign-in.ts#signInWithEmail': { anonymous: { allowed: 'signing in; limited per address and e-mail (lib/auth/sign-in-limit.ts)' }, args: withState },
  'app/(account)/_actions/sign-in.ts#signInWithProvider': { anonymous: { allowed: 'signing in; limited per address (lib/auth/sign-in-limit.ts)' } },
  'app/(account)/_actions/sign-in.ts#signOutAction': { anonymous: { allowed: 'ends only the session of the cookie it is sent with' }, args: () => [] },
  'app/(account)/_actions/sign-in.ts#signOutEverywhere': {
    anonymous: { allowed: 'ends the sessions of the signed-in user only; without one, only the (absent) current session' },
    args: () => [],
  },
  'app/(account)/_actions/username.ts#chooseUsernameAction': { anonymous: 'refused', args: withState },
  'app/(playground)/_actions/runs.ts#startRun': {
    anonymous: { allowed: 'anonymous visitors may run tools that need no token (manual/scripted or the anonymous quota); lib/runs decides what they may see' },
    args: withState,
  },
  'app/(playground)/_actions/runs.ts#forkRunAction': {
    anonymous: {
      allowed: 'anyone who may see a run may fork it, as themselves',
      // a private run is not theirs to see, so not theirs to fork
      async check(fn) {
        const before = await testDb().run.count();
        expect(await fn(fixtures.privateRun)).toEqual({ error: expect.any(String) });
        expect(await testDb().run.count()).toBe(before);
      },
    },
    args: () => ['00000000000000000000000000'],
  },
  'app/(playground)/_actions/skills.ts#loadPlaygroundSkill': {
    anonymous: {
      allowed: 'read-only: the skill as the viewer may see it',
      async check(fn) {
        expect(await fn(`@${fixtures.team}/secret-skill`)).toEqual({ error: `There is no skill @${fixtures.team}/secret-skill.` });
        expect(await fn('@skillyard/text-stats')).toMatchObject({ skill: { ref: '@skillyard/text-stats' } });
      },
    },
    args: () => ['@skillyard/text-stats'],
  },
  'app/(registry)/_actions/manage-version.ts#manageVersionAction': { anonymous: 'refused', args: withState },
  'app/(registry)/_actions/upgrade-check.ts#startUpgradeCheckAction': { anonymous: 'refused', args: () => [{ scope: 'skillyard', name: 'text-stats', version: '1.0.0' }] },
  'app/(registry)/_actions/upgrade-check.ts#readUpgradeCheckAction': { anonymous: 'refused', args: () => [[]] },
  'app/(registry)/_actions/review-finding.ts#reviewFindingAction': {
    anonymous: 'refused',
    args: () => [{ scope: 'skillyard', name: 'text-stats', version: '1.0.0', rule: 'net-fetch', file: 'SKILL.md', line: 1, reason: 'reviewed by the test suite' }],
  },
  'app/(registry)/_actions/trusted-publishers.ts#addTrustedPublisherAction': { anonymous: 'refused', args: withState },
  'app/(registry)/_actions/trusted-publishers.ts#removeTrustedPublisherAction': { anonymous: 'refused', args: withState },
  'app/(registry)/_actions/star.ts#starSkillAction': { anonymous: 'refused', args: () => [{ scope: 'skillyard', name: 'text-stats', starred: true }] },
  'app/(registry)/_actions/publish.ts#previewUploadAction': { anonymous: 'refused' },
  'app/(registry)/_actions/publish.ts#publishUploadAction': { anonymous: 'refused' },
  'app/(teams)/_actions/connections.ts#connectTeamAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/connections.ts#disconnectTeamAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/members.ts#inviteAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/members.ts#revokeInviteAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/members.ts#acceptInviteAction': {
    anonymous: 'refused',
    team: { anyPerson: 'the invitation code is the authorization (single use, expiring, revocable, maybe addressed)' },
    args: withState,
  },
  'app/(teams)/_actions/members.ts#changeRoleAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/members.ts#removeMemberAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/secrets.ts#setSecretAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/secrets.ts#deleteSecretAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/secrets.ts#createTeamTokenAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/secrets.ts#revokeTeamTokenAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/team.ts#createTeamAction': { anonymous: 'refused', team: { anyPerson: 'any signed-in person may create a team (they become its owner)' }, args: withState },
  'app/(teams)/_actions/team.ts#renameTeamAction': { anonymous: 'refused', team: true, args: withState },
  'app/(teams)/_actions/team.ts#deleteTeamAction': { anonymous: 'refused', team: true, args: withState },
};

const root = path.resolve(import.meta.dirname, '..');
const fixtures = { team: '', privateRun: '', owner: '', stranger: '' };
const modules = new Map<string, Record<string, unknown>>();

/** A form with every field an action reads, naming the fixture team. */
function form(): FormData {
  const f = new FormData();
  const fields: Record<string, string> = {
    team: fixtures.team,
    confirm: fixtures.team,
    name: 'API_KEY',
    value: 'sk-should-not-be-stored',
    role: 'member',
    member: fixtures.owner,
    invite: 'not-an-invite',
    token: 'not-a-token',
    provider: 'oidc',
    scopes: 'api:read',
    code: 'syi_not-a-real-invitation-code',
    slug: `sa-${Date.now().toString(36)}`,
    id: 'not-a-token',
    key: 'sk-0123456789abcdef',
    username: 'nobody-here',
    email: 'a@example.com',
    task: 't',
    skill: '@skillyard/text-stats',
    kind: 'files',
    days: '1',
    expiresInDays: '1',
    scope: 'invoke',
    answer: 'deny',
  };
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

function argsFor(entry: Entry): unknown[] {
  return (entry.args ?? (() => [FORM]))().map((a) => (a === FORM ? form() : a));
}

/** The actions the 'use server' modules under app/ and lib/ export, read from the modules themselves. */
async function discoverActions(): Promise<string[]> {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name) && /^\s*(\/\/[^\n]*\n\s*)*['"]use server['"]/.test(fs.readFileSync(p, 'utf8'))) found.push(p);
    }
  };
  walk(path.join(root, 'app'));
  walk(path.join(root, 'lib'));
  const out: string[] = [];
  for (const file of found) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const mod = (await import(file)) as Record<string, unknown>;
    modules.set(rel, mod);
    for (const [name, value] of Object.entries(mod)) if (typeof value === 'function') out.push(`${rel}#${name}`);
  }
  return out.sort();
}

function actionOf(key: string): Action {
  const [file, name] = key.split('#');
  return modules.get(file)![name] as Action;
}

type Outcome = { threw: unknown } | { returned: unknown };
async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { returned: await run() };
  } catch (err) {
    return { threw: err };
  }
}

/** A refusal: a redirect to sign in, a 401/403 error, or an answer that carries an error. */
function refusal(o: Outcome): string | null {
  if ('threw' in o) {
    const digest = String((o.threw as { digest?: unknown })?.digest ?? '');
    if (digest.startsWith('NEXT_REDIRECT') && digest.includes('/signin')) return 'redirect to sign in';
    if (isAppError(o.threw) && (o.threw.status === 401 || o.threw.status === 403)) return o.threw.message;
    return null;
  }
  const v = o.returned as { ok?: unknown; error?: unknown } | null | undefined;
  if (v && typeof v === 'object' && (v.ok === false || v.error)) return typeof v.error === 'string' ? v.error : JSON.stringify(v.error ?? v);
  return null;
}

let discovered: string[] = [];

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.SKILLYARD_OIDC_ISSUER ??= 'http://127.0.0.1:9';
  process.env.SKILLYARD_OIDC_ID ??= 'x';
  process.env.SKILLYARD_OIDC_SECRET ??= 'y';
  const db = testDb();
  await seedBundledSkills(db);
  const stamp = Date.now().toString(36);
  const owner = await db.user.create({ data: { handle: `sa-owner-${stamp}` } });
  const stranger = await db.user.create({ data: { handle: `sa-stranger-${stamp}` } });
  fixtures.owner = owner.id;
  fixtures.stranger = stranger.id;
  fixtures.team = `sa-team-${stamp}`;
  const team = await db.team.create({ data: { slug: fixtures.team, name: 'SA', memberships: { create: { userId: owner.id, role: 'owner' } } } });
  await db.scope.create({ data: { name: fixtures.team, kind: 'team', teamId: team.id } });
  await db.skill.create({ data: { scopeName: fixtures.team, name: 'secret-skill', description: 'private', format: 'skill-md', visibility: 'private' } });
  fixtures.privateRun = (
    await db.run.create({
      data: {
        id: newRunId(),
        config: { skills: ['@skillyard/text-stats'], task: 't', provider: 'manual' },
        userId: owner.id,
        visibility: 'private',
        status: 'succeeded',
        principal: `user:${owner.id}`,
      },
    })
  ).id;
  discovered = await discoverActions();
}, 120_000);

beforeEach(() => {
  calls.length = 0;
  request.origin = 'http://127.0.0.1:3999';
  request.user = null;
});

const asUser = (id: string) => ({ id, handle: null, name: null, email: null, image: null });

describe('every server action', () => {
  it('has an entry in the list (a new exported action without one fails here)', () => {
    expect({ missing: discovered.filter((k) => !(k in ACTIONS)), stale: Object.keys(ACTIONS).filter((k) => !discovered.includes(k)) }).toEqual({ missing: [], stale: [] });
    expect(discovered.length).toBeGreaterThan(30);
  });

  it("lives in one place: a route group's _actions/ folder (docs/architecture.md)", () => {
    const files = [...new Set(discovered.map((k) => k.split('#')[0]!))];
    expect(files.filter((f) => !/^app\/\([a-z-]+\)\/_actions\/[a-z-]+\.ts$/.test(f))).toEqual([]);
  });

  it('is built with the one chain: its origin check runs inside serverAction (lib/actions/server-action.ts)', async () => {
    const outside: string[] = [];
    for (const [key, entry] of Object.entries(ACTIONS)) {
      calls.length = 0;
      request.origin = 'https://evil.example';
      await outcome(() => actionOf(key)(...argsFor(entry)));
      if (calls[0] !== 'origin') outside.push(`${key}: ${calls.join(', ') || 'no origin check'}`);
    }
    expect(outside).toEqual([]);
    // the check sees an origin check made outside the chain
    calls.length = 0;
    const { assertSameOrigin } = await import('../lib/auth/same-origin');
    await outcome(() => assertSameOrigin());
    expect(calls).toEqual(['origin outside the chain']);
  }, 120_000);

  it('checks the origin first: from another site it is refused before anything else runs', async () => {
    const wrong: string[] = [];
    for (const [key, entry] of Object.entries(ACTIONS)) {
      calls.length = 0;
      request.origin = 'https://evil.example';
      request.user = asUser(fixtures.owner);
      const o = await outcome(() => actionOf(key)(...argsFor(entry)));
      if (calls.join(',') !== 'origin') wrong.push(`${key}: ran ${calls.join(', ') || 'no origin check'}`);
      else if (!refusal(o)) wrong.push(`${key}: not refused (${JSON.stringify('threw' in o ? String(o.threw) : o.returned)})`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses anonymous callers, unless its entry says why they may use it (and then passes its own authorization case)', async () => {
    const wrong: string[] = [];
    for (const [key, entry] of Object.entries(ACTIONS)) {
      calls.length = 0;
      if (entry.anonymous === 'refused') {
        const o = await outcome(() => actionOf(key)(...argsFor(entry)));
        if (!refusal(o)) wrong.push(`${key}: not refused (${JSON.stringify('threw' in o ? String(o.threw) : o.returned)})`);
        if (calls.includes('signIn')) wrong.push(`${key}: started a sign-in`);
      } else {
        expect(entry.anonymous.allowed.length, key).toBeGreaterThan(10);
        await entry.anonymous.check?.(actionOf(key));
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses a signed-in stranger every team action on the team, as if the team did not exist, and changes nothing', async () => {
    const wrong: string[] = [];
    const auditBefore = await testDb().auditEvent.count({ where: { team: { slug: fixtures.team } } });
    for (const [key, entry] of Object.entries(ACTIONS)) {
      if (entry.team !== true) {
        if (entry.team) expect(entry.team.anyPerson.length, key).toBeGreaterThan(10);
        continue;
      }
      request.user = asUser(fixtures.stranger);
      const o = await outcome(() => actionOf(key)(...argsFor(entry)));
      const why = refusal(o);
      if (!why || !/not found|not one of its members/.test(why)) wrong.push(`${key}: ${why ?? JSON.stringify('threw' in o ? String(o.threw) : o.returned)}`);
    }
    expect(wrong).toEqual([]);
    expect(await testDb().team.findUnique({ where: { slug: fixtures.team } })).not.toBeNull();
    expect(await testDb().teamSecret.count({ where: { team: { slug: fixtures.team } } })).toBe(0);
    expect(await testDb().auditEvent.count({ where: { team: { slug: fixtures.team } } })).toBe(auditBefore);
  }, 120_000);

  it('shows the last owner of a team why the account cannot be deleted, and deletes nothing', async () => {
    const owner = await testDb().user.findUniqueOrThrow({ where: { id: fixtures.owner } });
    request.user = { ...asUser(owner.id), handle: owner.handle };
    const f = new FormData();
    f.set('confirm', owner.handle!);
    const key = 'app/(account)/_actions/settings.ts#deleteAccountAction';
    const answer = (await actionOf(key)({ error: null }, f)) as { error: string };
    expect(answer.error).toContain(`You are the last owner of @${fixtures.team}`);
    expect(answer.error).toMatch(/another member an owner.*delete the team/);
    expect(calls).not.toContain('signOut');
    expect(await testDb().user.findUnique({ where: { id: owner.id } })).not.toBeNull();
  });
  it('refuses a signed-in stranger the version controls of a skill not theirs, and yanks nothing', async () => {
    request.user = asUser(fixtures.stranger);
    const f = new FormData();
    for (const [k, v] of Object.entries({ op: 'yank', scope: 'skillyard', name: 'text-stats', version: '1.0.0', reason: 'not mine' })) f.set(k, v);
    const key = 'app/(registry)/_actions/manage-version.ts#manageVersionAction';
    const answer = (await actionOf(key)({ ok: false, error: null }, f)) as { ok: boolean; error: string };
    expect(answer).toMatchObject({ ok: false, error: expect.stringMatching(/@skillyard is not yours/) });
    expect(await testDb().skillVersion.count({ where: { skill: { scopeName: 'skillyard', name: 'text-stats' }, yankedAt: { not: null } } })).toBe(0);
  });
  it('refuses publishing from the web into a scope the user may not publish into, and stores nothing', async () => {
    request.user = asUser(fixtures.stranger);
    const f = new FormData();
    f.set('kind', 'files');
    f.set('scope', fixtures.team);
    f.set('paths', JSON.stringify(['sneaky/SKILL.md']));
    f.append('file', new File(['---\nname: sneaky\ndescription: Not theirs.\n---\n\nHi.\n'], 'SKILL.md'));
    const key = 'app/(registry)/_actions/publish.ts#publishUploadAction';
    const answer = (await actionOf(key)(f)) as { ok: boolean; error: string; code: string };
    expect(answer).toMatchObject({ ok: false, code: 'publish/forbidden' });
    expect(await testDb().skill.count({ where: { scopeName: fixtures.team, name: 'sneaky' } })).toBe(0);
  });
});
