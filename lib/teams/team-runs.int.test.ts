// Team runs and what removal takes away, on the real Postgres: a member's run of the team's
// skills is the team's (other members see it, on the workspace too; outsiders do not), a
// run of a private skill stays private whatever was asked, and removing a member ends at
// once their access to the team's private skills, its runs (their own included) and its
// secrets. Invitations: single use even for the same person, expired ones not pending.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { readUpload } from '../registry/read-upload';
import { publishVersion } from '../registry/publish-version';
import { loadSkillVersion } from '../registry/load-skill-version';
import { createRun } from '../runs/create-run';
import { forkRun } from '../runs/fork-run';
import { getRun } from '../runs/get-run';
import { listUserRuns } from '../runs/list-user-runs';
import { createPgEnvironment } from '../server/capabilities/pg-environment';
import { listPlaygroundSkills } from '../registry/list-playground-skills';
import { privateScopesOf } from '../authz/private-scopes';
import { acceptInvite, createInvite, createTeam, getWorkspace, removeMember, setTeamSecret } from '.';
import { newRunId } from '../runs/run-id';
import { userPrincipal } from '../principal';

const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.9' });
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${seq++}`;
async function user() {
  const handle = `tr${uniq()}`;
  const u = await testDb().user.create({ data: { handle, name: handle } });
  await testDb().scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}
const enc = new TextEncoder();
async function publish(scope: string, name: string, visibility: 'public' | 'private') {
  const code = `export const frontmatter = { name: '${name}', description: 'Team runs fixture ${name}.' };\nexport default async function () { return 1; }\n`;
  const pkg = readUpload({ kind: 'files', files: [{ path: `${name}.skill.js`, content: enc.encode(code) }] });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  await publishVersion(testDb(), { scope, manifest: pkg.manifest, files: pkg.files, version: '1.0.0', visibility });
}
const config = (skill: string, visibility: 'public' | 'unlisted' | 'private' = 'unlisted') => ({
  skills: [skill],
  provider: 'manual' as const,
  task: 'try it',
  visibility,
});
const sees = (runId: string, userId: string | null) =>
  getRun(testDb(), runId, { userId }).then(
    () => true,
    (err: { code?: string }) => {
      if (err.code !== 'run/not-found') throw err;
      return false;
    },
  );

let ann = '';
let bob = '';
let cat = '';
let team = '';
let teamId = '';

beforeAll(async () => {
  ann = await user();
  bob = await user();
  cat = await user();
  team = (await createTeam(testDb(), as(ann), { slug: `tr-${uniq()}` })).slug;
  teamId = (await testDb().team.findUniqueOrThrow({ where: { slug: team } })).id;
  await acceptInvite(testDb(), as(bob), (await createInvite(testDb(), as(ann), team, { role: 'member' })).secret);
  await publish(team, 'secret-tool', 'private');
  await publish(team, 'open-tool', 'public');
  await setTeamSecret(testDb(), as(ann), team, 'TEAM_API_KEY', 'sk-team-1234');
}, 60_000);

describe('team runs', () => {
  it("makes a member's run of a private team skill the team's and private, seen by members only", async () => {
    const run = await createRun(testDb(), { config: config(`@${team}/secret-tool`, 'public'), userId: bob });
    const row = await testDb().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row).toMatchObject({ teamId, visibility: 'private' });
    expect((row.config as { visibility: string }).visibility).toBe('private');
    expect(await sees(run.id, bob)).toBe(true);
    expect(await sees(run.id, ann)).toBe(true); // another member
    expect(await sees(run.id, cat)).toBe(false); // an outsider, even with the link
    expect(await sees(run.id, null)).toBe(false);
    await expect(forkRun(testDb(), run.id, { userId: cat })).rejects.toMatchObject({ code: 'run/not-found' });
    // only the creator controls it
    expect((await getRun(testDb(), run.id, { userId: ann })).canControl).toBe(false);
    expect((await getRun(testDb(), run.id, { userId: bob })).canControl).toBe(true);
    const ws = await getWorkspace(testDb(), as(ann), team);
    expect(ws.runs.find((r) => r.id === run.id)).toMatchObject({ skills: [`@${team}/secret-tool`], visibility: 'private' });
    expect(ws.runs.find((r) => r.id === run.id)?.by).toMatch(/^@tr/);
  });

  it("keeps a member's run of a public team skill as asked, on the workspace; an outsider's run of it is nobody's team run", async () => {
    const mine = await createRun(testDb(), { config: config(`@${team}/open-tool`), userId: bob });
    expect(await testDb().run.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({ teamId, visibility: 'unlisted' });
    expect(await sees(mine.id, cat)).toBe(true); // unlisted: anyone with the link
    const theirs = await createRun(testDb(), { config: config(`@${team}/open-tool`), userId: cat });
    expect(await testDb().run.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ teamId: null, visibility: 'unlisted' });
    const ws = await getWorkspace(testDb(), as(ann), team);
    expect(ws.runs.map((r) => r.id)).toContain(mine.id);
    expect(ws.runs.map((r) => r.id)).not.toContain(theirs.id);
  });

  it('reveals nothing when an outsider names a private skill: their run is not made private or the team’s', async () => {
    const run = await createRun(testDb(), { config: config(`@${team}/secret-tool`), userId: cat });
    expect(await testDb().run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ teamId: null, visibility: 'unlisted' });
    const missing = await createRun(testDb(), { config: config(`@${team}/no-such-tool`), userId: cat });
    expect(await testDb().run.findUniqueOrThrow({ where: { id: missing.id } })).toMatchObject({ teamId: null, visibility: 'unlisted' });
  });
});

describe('runs naming private skills of more than one owner', () => {
  // ann is in `team` and `two`; cat is in `two` only. A run may be a team's only when every
  // private skill in it is that team's, whatever order the skills are named in.
  let two = '';
  let twoId = '';
  beforeAll(async () => {
    two = (await createTeam(testDb(), as(ann), { slug: `tr2-${uniq()}` })).slug;
    twoId = (await testDb().team.findUniqueOrThrow({ where: { slug: two } })).id;
    await acceptInvite(testDb(), as(cat), (await createInvite(testDb(), as(ann), two, { role: 'member' })).secret);
    await publish(two, 'two-pub', 'public');
    await publish(two, 'two-secret', 'private');
  }, 60_000);
  const run = (skills: string[]) => createRun(testDb(), { config: { ...config(skills[0]), skills }, userId: ann });
  const row = (id: string) => testDb().run.findUniqueOrThrow({ where: { id }, select: { teamId: true, visibility: true } });
  const onWorkspace = async (slug: string, viewer: string, id: string) => (await getWorkspace(testDb(), as(viewer), slug)).runs.some((r) => r.id === id);

  it("gives a run of one team's public skill and another team's private one to the private skill's team", async () => {
    const r = await run([`@${two}/two-pub`, `@${team}/secret-tool`]);
    expect(await row(r.id)).toEqual({ teamId, visibility: 'private' });
    expect(await sees(r.id, cat)).toBe(false); // in `two` only: never sees `team`'s private tool
    await expect(forkRun(testDb(), r.id, { userId: cat })).rejects.toMatchObject({ code: 'run/not-found' });
    expect(await onWorkspace(two, cat, r.id)).toBe(false);
    expect(await sees(r.id, bob)).toBe(true); // a member of `team`
  });

  it("makes a run of two teams' private skills, or a team's and the creator's own, the creator's own", async () => {
    const both = await run([`@${two}/two-secret`, `@${team}/secret-tool`]);
    expect(await row(both.id)).toEqual({ teamId: null, visibility: 'private' });
    const annHandle = (await testDb().user.findUniqueOrThrow({ where: { id: ann } })).handle!;
    await publish(annHandle, 'own-tool', 'private');
    const mixed = await run([`@${team}/open-tool`, `@${annHandle}/own-tool`]);
    expect(await row(mixed.id)).toEqual({ teamId: null, visibility: 'private' });
    for (const id of [both.id, mixed.id]) {
      expect(await sees(id, ann)).toBe(true);
      expect(await sees(id, bob)).toBe(false);
      expect(await sees(id, cat)).toBe(false);
      expect(await onWorkspace(team, bob, id)).toBe(false);
      expect(await onWorkspace(two, cat, id)).toBe(false);
    }
  });

  it('hides a private team run from a member who cannot see every private skill in it, even if it was tagged with the team', async () => {
    // a row as the old rule stored it: tagged with `two` by skill order
    const skills = [`@${two}/two-pub`, `@${team}/secret-tool`];
    const legacy = await testDb().run.create({
      data: { id: newRunId(), userId: ann, principal: `user:${ann}`, teamId: twoId, visibility: 'private', config: { ...config(skills[0], 'private'), skills } },
      select: { id: true },
    });
    expect(await sees(legacy.id, cat)).toBe(false);
    await expect(forkRun(testDb(), legacy.id, { userId: cat })).rejects.toMatchObject({ code: 'run/not-found' });
    expect(await onWorkspace(two, cat, legacy.id)).toBe(false);
    // ann is in both teams: she still sees it, on the workspace too
    expect(await sees(legacy.id, ann)).toBe(true);
    expect(await onWorkspace(two, ann, legacy.id)).toBe(true);
  });
});

describe('the playground picker', () => {
  it("lists the team's private skill to its members and to nobody else", async () => {
    const names = async (viewerId: string | null) =>
      (await listPlaygroundSkills(testDb(), { q: 'secret-tool', take: 12, viewerScopes: await privateScopesOf(testDb(), viewerId) })).map((o) => `@${o.scope}/${o.name}`);
    expect(await names(bob)).toContain(`@${team}/secret-tool`);
    expect(await names(cat)).not.toContain(`@${team}/secret-tool`);
    expect(await names(null)).not.toContain(`@${team}/secret-tool`);
  });
});

describe('removing a member', () => {
  it("ends at once their access to the team's private skills, its runs (their own too) and its secrets", async () => {
    const dee = await user();
    await acceptInvite(testDb(), as(dee), (await createInvite(testDb(), as(ann), team, { role: 'publisher' })).secret);
    const own = await createRun(testDb(), { config: config(`@${team}/secret-tool`), userId: dee });
    const annsRun = await createRun(testDb(), { config: config(`@${team}/secret-tool`), userId: ann });
    const env = createPgEnvironment(testDb());
    const envScope = { callerId: `user:${dee}`, callerKind: 'user' as const, skill: `@${team}/secret-tool`, tool: 't' };
    // before: everything
    await expect(loadSkillVersion(testDb(), { scope: team, name: 'secret-tool' }, { userId: dee })).resolves.toMatchObject({ version: '1.0.0' });
    expect(await sees(own.id, dee)).toBe(true);
    expect(await sees(annsRun.id, dee)).toBe(true);
    expect((await listUserRuns(testDb(), dee)).map((r) => r.id)).toContain(own.id);
    expect(await env.get(envScope, 'TEAM_API_KEY')).toBe('sk-team-1234');

    await removeMember(testDb(), as(ann), team, dee);

    // after: nothing, with no further step (no cache, no session to expire)
    await expect(loadSkillVersion(testDb(), { scope: team, name: 'secret-tool' }, { userId: dee })).rejects.toMatchObject({ status: 404 });
    expect(await sees(own.id, dee)).toBe(false);
    expect(await sees(annsRun.id, dee)).toBe(false);
    await expect(forkRun(testDb(), own.id, { userId: dee })).rejects.toMatchObject({ code: 'run/not-found' });
    expect((await listUserRuns(testDb(), dee)).map((r) => r.id)).not.toContain(own.id);
    expect(await env.get(envScope, 'TEAM_API_KEY')).toBeNull();
    expect((await listPlaygroundSkills(testDb(), { q: 'secret-tool', take: 12, viewerScopes: await privateScopesOf(testDb(), dee) })).map((o) => o.name)).not.toContain(
      'secret-tool',
    );
    await expect(getWorkspace(testDb(), as(dee), team)).rejects.toMatchObject({ status: 404 });
    // the team keeps the run: members still see it
    expect(await sees(own.id, ann)).toBe(true);
    expect((await getWorkspace(testDb(), as(ann), team)).runs.map((r) => r.id)).toContain(own.id);
    const audit = await testDb().auditEvent.findFirst({ where: { teamId, action: 'member.remove', target: dee } });
    expect(audit).not.toBeNull();
  });
});

describe('invitations', () => {
  it('are used once even by the same person, and an expired one is not pending and cannot be used', async () => {
    const eve = await user();
    const link = await createInvite(testDb(), as(ann), team, {});
    await acceptInvite(testDb(), as(eve), link.secret);
    await expect(acceptInvite(testDb(), as(eve), link.secret)).rejects.toMatchObject({ code: 'invite/used', status: 410 });
    const expired = await createInvite(testDb(), as(ann), team, { ttlMs: -1 });
    const pending = (await getWorkspace(testDb(), as(ann), team)).invites.map((i) => i.id);
    expect(pending).not.toContain(expired.id);
    expect(pending).not.toContain(link.id);
    await expect(acceptInvite(testDb(), as(cat), expired.secret)).rejects.toMatchObject({ code: 'invite/expired' });
    expect(await testDb().membership.findUnique({ where: { teamId_userId: { teamId, userId: cat } } })).toBeNull();
  });
});
