// Team connections on the real Postgres: an admin's OAuth tokens stored for the team
// (sealed, audited; a member cannot), lent to members for the tools of the team's own
// skills only (the token gate), to nobody outside, and gone at once on removal or
// disconnect. The connect intent cookie names a team for its own user, briefly.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { checkTokenGate } from '../runtime';
import type { ToolManifest } from '../skills';
import { resolveCaller } from '../server/runtime-for-caller';
import { heldTokenClaims, unlockPlan } from './unlock-plan';
import {
  acceptInvite,
  createInvite,
  createTeam,
  encodeTeamConnectIntent,
  getWorkspace,
  listAudit,
  parseTeamConnectIntent,
  removeMember,
  removeTeamConnection,
  storeTeamConnection,
} from '.';
import { userPrincipal } from '../principal';

const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.11' });
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${seq++}`;
async function user() {
  const handle = `tc${uniq()}`;
  const u = await testDb().user.create({ data: { handle, name: handle } });
  await testDb().scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}
// a tool gated on the OIDC connection's api:read, as skills/connected-api declares it
const gated = { name: 'api_whoami', inputTokens: { '@oauth/oidc': { required: ['api:read'] } } } as unknown as ToolManifest;
const tokens = (access: string) => ({ provider: 'oidc', access_token: access, refresh_token: 'rt-team', expires_in: 3600, scope: 'openid api:read' });

let admin = '';
let member = '';
let outsider = '';
let team = '';

beforeAll(async () => {
  admin = await user();
  member = await user();
  outsider = await user();
  team = (await createTeam(testDb(), as(admin), { slug: `tc-${uniq()}` })).slug;
  await acceptInvite(testDb(), as(member), (await createInvite(testDb(), as(admin), team, { role: 'member' })).secret);
}, 60_000);

describe('team connections', () => {
  it('are stored sealed for the team by an admin, never by a member, and listed without their token', async () => {
    await expect(storeTeamConnection(testDb(), member, team, tokens('at-by-member'))).rejects.toMatchObject({ code: 'team/forbidden' });
    await expect(storeTeamConnection(testDb(), outsider, team, tokens('at-by-outsider'))).rejects.toMatchObject({ code: 'team/not-found' });
    await storeTeamConnection(testDb(), admin, team, tokens('at-team-one'), '203.0.113.11');
    await storeTeamConnection(testDb(), admin, team, tokens('at-team-two')); // a reconnect replaces it
    const rows = await testDb().heldToken.findMany({ where: { team: { slug: team } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ issuer: '@oauth/oidc', userId: null, claims: ['account', 'openid', 'api:read'] });
    expect(rows[0].secret).not.toContain('at-team');
    // the admin's own connections are untouched
    expect(await testDb().heldToken.count({ where: { userId: admin } })).toBe(0);
    const ws = await getWorkspace(testDb(), as(member), team);
    expect(ws.connections).toEqual([expect.objectContaining({ provider: 'oidc', claims: ['account', 'openid', 'api:read'] })]);
    expect(JSON.stringify(ws)).not.toContain('at-team');
    const log = await listAudit(testDb(), as(admin), team);
    expect(log.filter((e) => e.action === 'connection.add').map((e) => e.target)).toEqual(['@oauth/oidc', '@oauth/oidc']);
    expect(JSON.stringify(log)).not.toContain('at-team');
  });

  it("unlock the team's own skills' tools for its members, and nobody else's", async () => {
    const mine = await resolveCaller(testDb(), { userId: member });
    const lent = mine.tokens.find((t) => t.issuer === '@oauth/oidc');
    expect(lent).toMatchObject({ secret: 'at-team-two', onlyForScope: team });
    // a tool of the team's own skill gets it
    const gate = checkTokenGate(gated, mine.tokens, new Date(), team);
    expect(gate.ok && gate.granted.map((g) => g.secret)).toEqual(['at-team-two']);
    // the same member running another scope's tool, or a tool of no scope: locked
    expect(checkTokenGate(gated, mine.tokens, new Date(), 'skillyard').ok).toBe(false);
    expect(checkTokenGate(gated, mine.tokens, new Date(), null).ok).toBe(false);
    // the pages' unlock plan says the same, without unsealing anything
    const claims = await heldTokenClaims(testDb(), member);
    expect(claims.find((t) => t.issuer === '@oauth/oidc')).toMatchObject({ secret: '', onlyForScope: team });
    expect(unlockPlan([gated], claims, [], new Date(), team).unlocked).toEqual(['api_whoami']);
    expect(unlockPlan([gated], claims, [], new Date(), 'skillyard').unlocked).toEqual([]);
    expect(unlockPlan([gated], await heldTokenClaims(testDb(), outsider), [], new Date(), team).unlocked).toEqual([]);
    // an outsider holds nothing of it
    const theirs = await resolveCaller(testDb(), { userId: outsider });
    expect(theirs.tokens).toEqual([]);
    expect(checkTokenGate(gated, theirs.tokens, new Date(), team).ok).toBe(false);
  });

  it('stop at once when the member is removed, and for everyone on disconnect', async () => {
    const dee = await user();
    await acceptInvite(testDb(), as(dee), (await createInvite(testDb(), as(admin), team, {})).secret);
    expect(checkTokenGate(gated, (await resolveCaller(testDb(), { userId: dee })).tokens, new Date(), team).ok).toBe(true);
    await removeMember(testDb(), as(admin), team, dee);
    expect((await resolveCaller(testDb(), { userId: dee })).tokens).toEqual([]);

    await expect(removeTeamConnection(testDb(), as(member), team, 'oidc')).rejects.toMatchObject({ code: 'team/forbidden' });
    await removeTeamConnection(testDb(), as(admin), team, 'oidc');
    expect(checkTokenGate(gated, (await resolveCaller(testDb(), { userId: member })).tokens, new Date(), team).ok).toBe(false);
    await expect(removeTeamConnection(testDb(), as(admin), team, 'oidc')).rejects.toMatchObject({ code: 'team/connection-not-found', status: 404 });
    expect((await listAudit(testDb(), as(admin), team)).map((e) => e.action)).toContain('connection.remove');
  });

  it('take a connect intent only from its own user, while it lasts', () => {
    const now = Date.now();
    const intent = encodeTeamConnectIntent(team, admin, now);
    expect(parseTeamConnectIntent(intent, admin, now)).toBe(team);
    expect(parseTeamConnectIntent(intent, member, now)).toBeNull();
    expect(parseTeamConnectIntent(intent, admin, now + 11 * 60_000)).toBeNull();
    expect(parseTeamConnectIntent('../evil.x.1', admin, now)).toBeNull();
    expect(parseTeamConnectIntent(undefined, admin, now)).toBeNull();
  });
});
