// The authorization matrix (issue 12): every route handler under app/api, for every kind
// of principal (anonymous; a stranger; an owner of another team; a member, publisher,
// admin and owner of the team; a member's token without scopes; the team's own API
// token; a team token without the scope a route needs; a team token that holds `teams`,
// as one made before that scope was refused could) against the team's public, unlisted
// and private resources. Each answer is checked against the table below; a private
// resource must be indistinguishable from a missing one to anyone outside the team (404,
// never 403, and no trace in lists). The routes are read from the route modules
// themselves (their exported HTTP methods, however exported): a route file that exports
// no method, or a route and method without an entry here, fails the first test.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { createApiToken } from '../lib/auth/api-tokens';
import { userPrincipal } from '../lib/principal';
import { readUpload } from '../lib/registry/read-upload';
import { publishVersion } from '../lib/registry/publish-version';
import { acceptInvite, createInvite, createTeam, createTeamApiToken } from '../lib/teams';
import { newRunId } from '../lib/runs/run-id';

const PRINCIPALS = [
  'anonymous',
  'stranger',
  'otherOwner',
  'member',
  'publisher',
  'admin',
  'owner',
  'memberNoScope',
  'teamToken',
  'teamTokenInvokeOnly',
  'teamTokenWithTeams',
] as const;
type Who = (typeof PRINCIPALS)[number];
type Expect = Partial<Record<Who | 'default', number>>;
type PerWho<T> = T | ((who: Who) => T);
type Case = {
  label: string;
  method: string;
  path: PerWho<string>;
  body?: PerWho<unknown>;
  raw?: PerWho<{ bytes: Uint8Array; type: string }>;
  expect: Expect;
  notContaining?: string;
  membersSee?: string;
};
const forWho = <T>(v: PerWho<T>, who: Who): T => (typeof v === 'function' ? (v as (w: Who) => T)(who) : v);
type Entry = { skip: string } | { cases: () => Promise<Case[]> | Case[] };

const root = path.resolve(import.meta.dirname, '..');
let team = '';
let other = '';
const users = {} as Record<Exclude<Who, 'anonymous' | 'memberNoScope' | 'teamToken' | 'teamTokenInvokeOnly' | 'teamTokenWithTeams'>, string>;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
let privateRun = '';
let unlistedRun = '';
let teamRun = '';
let n = 0;
const uniq = () => `${Date.now().toString(36)}${n++}`;

const MEMBERS: Who[] = ['member', 'publisher', 'admin', 'owner', 'memberNoScope', 'teamToken', 'teamTokenInvokeOnly', 'teamTokenWithTeams'];
/** the team token that holds only `invoke`: refused (403) by every route that needs another scope */
const lacksScope = (scope: 'invoke' | 'runs' | 'publish' | undefined): Expect => (scope ? { memberNoScope: 403, ...(scope !== 'invoke' ? { teamTokenInvokeOnly: 403 } : {}) } : {});
/** who sees the team's private skills (reads need no scope; `scope`: the token scope the route needs) */
const seesPrivate = (ok: number, scope?: 'invoke' | 'runs'): Expect => ({
  default: 404,
  anonymous: 404,
  ...Object.fromEntries(MEMBERS.map((w) => [w, ok])),
  ...lacksScope(scope),
});
const everyone = (ok: number): Expect => ({ default: ok });
/** routes for people managing teams: no team token, whatever its scopes (a team token holding `teams` included) */
const PEOPLE_ONLY: Expect = { anonymous: 401, memberNoScope: 403, teamToken: 403, teamTokenInvokeOnly: 403, teamTokenWithTeams: 403 };
/** a star is a person's: no team token stars (teams are free, so their tokens would be extra votes) */
const TEAM_TOKENS_REFUSED: Expect = { teamToken: 403, teamTokenInvokeOnly: 403, teamTokenWithTeams: 403 };
/** publishing-type actions: publishers and up (and the team token); other members 403; outsiders 404 on private, 403 on public */
const publishers = (ok: number, onPrivate: boolean): Expect => ({
  default: onPrivate ? 404 : 403,
  // a mutation asks an anonymous caller to sign in, whether or not the skill exists
  anonymous: 401,
  member: 403,
  memberNoScope: 403,
  teamTokenInvokeOnly: 403,
  publisher: ok,
  admin: ok,
  owner: ok,
  teamToken: ok,
  teamTokenWithTeams: ok,
});
/** team management: a person with the `teams` scope; outsiders 404; tokens without the scope, and every team token, 403 */
const teamRole = (ok: number, roles: Who[]): Expect => ({
  default: 404,
  anonymous: 401,
  memberNoScope: 403,
  teamToken: 403,
  teamTokenInvokeOnly: 403,
  teamTokenWithTeams: 403,
  member: 403,
  publisher: 403,
  admin: 403,
  owner: 403,
  ...Object.fromEntries(roles.map((r) => [r, ok])),
});

const skillMd = (name: string) => `---\nname: ${name}\ndescription: Matrix fixture ${name}.\n---\n\n# ${name}\n\nSay hello.\n`;
const codeSkill = (name: string) =>
  `export const frontmatter = { name: '${name}', description: 'Matrix fixture ${name}.' };\nexport default async function (ctx, args) { return { echoed: args && args.text ? args.text : null }; }\n`;
const enc = new TextEncoder();

async function publish(scope: string, name: string, version: string, visibility: 'public' | 'unlisted' | 'private') {
  const pkg = readUpload({ kind: 'files', files: [{ path: `${name}.skill.js`, content: enc.encode(codeSkill(name)) }] });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  await publishVersion(testDb(), { scope, manifest: pkg.manifest, files: pkg.files, version, visibility });
}

/** an unknown device code is the same answer for everyone */
const DEVICE_UNKNOWN = 400;
const skill = (v: 'pub' | 'unl' | 'priv') => `/api/v1/skills/${team}/${v}`;
const onPrivate = (v: string) => v === 'priv';

const ROUTES: Record<string, Entry> = {
  'GET /api/auth/[...nextauth]': { skip: "next-auth's own endpoints (sign-in, callbacks); covered by the sign-in tests" },
  'POST /api/auth/[...nextauth]': { skip: "next-auth's own endpoints (sign-in, callbacks); covered by the sign-in tests" },
  'GET /api/health': { skip: 'no resource: the same answer for everyone' },
  'GET /api/health/live': { skip: 'no resource: says the process answers, the same for everyone' },
  'GET /api/health/ready': { skip: 'no resource: says whether this instance takes traffic, the same for everyone' },
  'POST /api/auth/device': { skip: 'no resource: starts a device login, the same for everyone (rate limited)' },
  'POST /api/auth/cli-logout': { skip: 'takes no resource: revokes only the API token that makes the request (lib/auth tests)' },
  'POST /api/auth/device/token': {
    cases: () => [
      {
        label: 'an unknown device code',
        method: 'POST',
        path: '/api/auth/device/token',
        body: { deviceCode: 'not-a-real-device-code-0123456789' },
        expect: everyone(DEVICE_UNKNOWN),
      },
    ],
  },
  'GET /api/auth/whoami': {
    cases: () => [{ label: 'whoami', method: 'GET', path: '/api/auth/whoami', expect: { default: 200, anonymous: 401 } }],
  },

  'GET /api/v1/openapi.json': { skip: 'no resource: the public API description' },
  'GET /api/mcp': { skip: 'session-bound stream: a session answers only its own principal (lib/mcp/mcp-http.int.test.ts)' },
  'DELETE /api/mcp': { skip: 'session-bound: a session answers only its own principal (lib/mcp/mcp-http.int.test.ts)' },
  'GET /api/mcp/[scope]/[name]': { skip: 'session-bound stream: a session answers only its own principal (lib/mcp/mcp-http.int.test.ts)' },
  'DELETE /api/mcp/[scope]/[name]': { skip: 'session-bound: a session answers only its own principal (lib/mcp/mcp-http.int.test.ts)' },
  'POST /api/mcp': {
    cases: () => [{ label: 'initialize over a private skill', method: 'POST', path: `/api/mcp?skills=@${team}/priv`, body: initialize(), expect: seesPrivate(200, 'invoke') }],
  },
  'POST /api/mcp/[scope]/[name]': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: `initialize ${v}`,
        method: 'POST',
        path: `/api/mcp/${team}/${v}`,
        body: initialize(),
        expect: onPrivate(v) ? seesPrivate(200, 'invoke') : { default: 200, ...lacksScope('invoke') },
      })),
  },
  'GET /api/v1/playground/skills': {
    cases: () => [
      { label: 'picker search', method: 'GET', path: `/api/v1/playground/skills?q=priv`, expect: everyone(200), notContaining: `"name":"priv"`, membersSee: `"name":"priv"` },
    ],
  },
  'GET /api/v1/skills': {
    cases: () => [{ label: 'search', method: 'GET', path: `/api/v1/skills?q=fixture&scope=${team}`, expect: everyone(200), notContaining: `"priv"`, membersSee: `"name":"priv"` }],
  },
  'GET /api/v1/search/suggest': {
    cases: () => [
      { label: 'suggest', method: 'GET', path: `/api/v1/search/suggest?q=priv&limit=10`, expect: everyone(200), notContaining: `"name":"priv"`, membersSee: `"name":"priv"` },
    ],
  },
  'POST /api/v1/skills': {
    cases: () => [
      {
        label: 'publish into the team scope',
        method: 'POST',
        path: () => `/api/v1/skills?scope=${team}&filename=fresh.skill.md&version=1.0.${n++}`,
        raw: () => ({ bytes: enc.encode(skillMd(`fresh-${uniq()}`)), type: 'text/markdown' }),
        expect: {
          default: 403,
          anonymous: 401,
          member: 403,
          memberNoScope: 403,
          publisher: 201,
          admin: 201,
          owner: 201,
          teamToken: 201,
          teamTokenWithTeams: 201,
          teamTokenInvokeOnly: 403,
        },
      },
    ],
  },
  'GET /api/v1/skills/[scope]/[name]': {
    cases: () => (['pub', 'unl', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: skill(v), expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'GET /api/v1/skills/[scope]/[name]/versions': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/versions`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'GET /api/v1/skills/[scope]/[name]/dist-tags': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/dist-tags`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'GET /api/v1/skills/[scope]/[name]/[version]': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/1.0.0`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'GET /api/v1/skills/[scope]/[name]/[version]/evidence': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/1.0.0/evidence`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'GET /api/v1/skills/[scope]/[name]/[version]/permissions': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'GET',
        path: `${skill(v)}/1.0.0/permissions?from=1.0.0`,
        expect: onPrivate(v) ? seesPrivate(200) : everyone(200),
      })),
  },
  'GET /api/v1/skills/[scope]/[name]/[version]/statement': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/1.0.0/statement`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'GET /api/v1/skills/[scope]/[name]/[version]/findings': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/1.0.0/findings`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'POST /api/v1/skills/[scope]/[name]/[version]/findings': {
    // the version has no findings: past the check, a publisher learns that (404)
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'POST',
        path: `${skill(v)}/1.0.0/findings`,
        body: { rule: 'code/eval', file: 'x.js', line: 1, reason: 'a reason long enough' },
        expect: publishers(404, onPrivate(v)),
      })),
  },
  'GET /api/v1/skills/[scope]/[name]/[version]/tarball': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/1.0.0/tarball`, expect: onPrivate(v) ? seesPrivate(200) : everyone(200) })),
  },
  'DELETE /api/v1/skills/[scope]/[name]/[version]': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'DELETE', path: `${skill(v)}/9.9.9`, expect: { ...publishers(404, onPrivate(v)) } })),
  },
  'POST /api/v1/skills/[scope]/[name]/[version]/yank': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'POST', path: `${skill(v)}/1.0.0/yank`, body: { undo: true }, expect: publishers(200, onPrivate(v)) })),
  },
  'GET /api/v1/skills/[scope]/[name]/trusted-publishers': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'GET', path: `${skill(v)}/trusted-publishers`, expect: publishers(200, onPrivate(v)) })),
  },
  'POST /api/v1/skills/[scope]/[name]/trusted-publishers': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'POST',
        path: `${skill(v)}/trusted-publishers`,
        body: { issuer: 'https://token.actions.githubusercontent.com', claims: { repository: 'matrix/fixture' } },
        expect: publishers(201, onPrivate(v)),
      })),
  },
  'DELETE /api/v1/skills/[scope]/[name]/trusted-publishers/[id]': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: `${v}, an unknown id`,
        method: 'DELETE',
        path: `${skill(v)}/trusted-publishers/nope`,
        expect: publishers(400, onPrivate(v)),
      })),
  },
  'POST /api/v1/publish/oidc/token': {
    cases: () => [{ label: 'not a CI token', method: 'POST', path: '/api/v1/publish/oidc/token', body: { token: 'x'.repeat(40), skill: `@${team}/priv` }, expect: everyone(401) }],
  },
  'POST /api/v1/skills/[scope]/[name]/deprecate': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'POST',
        path: `${skill(v)}/deprecate`,
        body: { range: '1.0.0', message: '' },
        expect: publishers(200, onPrivate(v)),
      })),
  },
  'PUT /api/v1/skills/[scope]/[name]/dist-tags/[tag]': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'PUT', path: `${skill(v)}/dist-tags/stable`, body: { version: '1.0.0' }, expect: publishers(200, onPrivate(v)) })),
  },
  'DELETE /api/v1/skills/[scope]/[name]/dist-tags/[tag]': {
    cases: () => (['pub', 'priv'] as const).map((v) => ({ label: v, method: 'DELETE', path: `${skill(v)}/dist-tags/nope`, expect: publishers(200, onPrivate(v)) })),
  },
  'PUT /api/v1/skills/[scope]/[name]/star': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'PUT',
        path: `${skill(v)}/star`,
        expect: { ...(onPrivate(v) ? { ...seesPrivate(200), anonymous: 401 } : { default: 200, anonymous: 401 }), ...TEAM_TOKENS_REFUSED },
      })),
  },
  'DELETE /api/v1/skills/[scope]/[name]/star': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'DELETE',
        path: `${skill(v)}/star`,
        expect: { ...(onPrivate(v) ? { ...seesPrivate(200), anonymous: 401 } : { default: 200, anonymous: 401 }), ...TEAM_TOKENS_REFUSED },
      })),
  },
  'POST /api/v1/tools/[name]/invoke': {
    cases: () =>
      (['pub', 'priv'] as const).map((v) => ({
        label: v,
        method: 'POST',
        path: `/api/v1/tools/${v}/invoke`,
        body: { skill: `@${team}/${v}`, args: { text: 'hi' } },
        expect: onPrivate(v) ? seesPrivate(200, 'invoke') : { default: 200, ...lacksScope('invoke') },
      })),
  },
  'POST /api/v1/runs': {
    cases: () => [
      {
        label: 'a run of a private skill',
        method: 'POST',
        path: '/api/v1/runs',
        body: { skills: [`@${team}/priv`], task: 't', provider: 'manual' },
        // creating a run reveals nothing: a run of a skill its caller may not see fails like one of a missing skill
        expect: { default: 201, ...lacksScope('runs') },
      },
    ],
  },
  'GET /api/v1/runs/[id]': {
    cases: () => [
      { label: 'private run of the member', method: 'GET', path: `/api/v1/runs/${privateRun}`, expect: { default: 404, member: 200, ...lacksScope('runs') } },
      { label: 'unlisted run', method: 'GET', path: `/api/v1/runs/${unlistedRun}`, expect: { default: 200, ...lacksScope('runs'), teamToken: 200 } },
      // a private team run (a member's run of the team's private skill): every member sees it
      { label: 'private team run', method: 'GET', path: `/api/v1/runs/${teamRun}`, expect: seesPrivate(200, 'runs'), notContaining: 'priv' },
    ],
  },
  'GET /api/v1/runs/[id]/events': {
    cases: () => [
      { label: 'private run of the member', method: 'GET', path: `/api/v1/runs/${privateRun}/events?after=999999`, expect: { default: 404, member: 200, ...lacksScope('runs') } },
      { label: 'private team run', method: 'GET', path: `/api/v1/runs/${teamRun}/events?after=999999`, expect: seesPrivate(200, 'runs') },
      // the stored events as one JSON page: the same authorization as the stream
      {
        label: 'private run of the member, as JSON',
        method: 'GET',
        path: `/api/v1/runs/${privateRun}/events?format=json`,
        expect: { default: 404, member: 200, ...lacksScope('runs') },
      },
      { label: 'private team run, as JSON', method: 'GET', path: `/api/v1/runs/${teamRun}/events?format=json`, expect: seesPrivate(200, 'runs') },
    ],
  },
  'POST /api/v1/runs/[id]/cancel': {
    cases: () => [
      {
        label: 'private run of the member',
        method: 'POST',
        path: `/api/v1/runs/${unlistedRun}/cancel`,
        expect: { default: 403, anonymous: 403, member: 200, ...lacksScope('runs') },
      },
    ],
  },
  'POST /api/v1/runs/[id]/turns': {
    cases: () => [
      {
        label: 'private run of the member',
        method: 'POST',
        path: `/api/v1/runs/${privateRun}/turns`,
        body: { turn: { code: '1' } },
        expect: { default: 404, member: 409, ...lacksScope('runs') },
      },
    ],
  },
  'POST /api/v1/runs/[id]/fork': {
    cases: () => [
      { label: 'private run of the member', method: 'POST', path: `/api/v1/runs/${privateRun}/fork`, body: {}, expect: { default: 404, member: 201, ...lacksScope('runs') } },
    ],
  },
  'GET /api/v1/teams': {
    cases: () => [{ label: 'my teams', method: 'GET', path: '/api/v1/teams', expect: { default: 200, ...PEOPLE_ONLY } }],
  },
  'POST /api/v1/teams': {
    cases: () => [{ label: 'create', method: 'POST', path: '/api/v1/teams', body: () => ({ slug: `m-${uniq()}` }), expect: { default: 201, ...PEOPLE_ONLY } }],
  },
  'GET /api/v1/teams/[slug]': {
    cases: () => [
      { label: 'workspace', method: 'GET', path: `/api/v1/teams/${team}`, expect: teamRole(200, ['member', 'publisher', 'admin', 'owner']), notContaining: 'sk-matrix' },
    ],
  },
  'PATCH /api/v1/teams/[slug]': {
    cases: () => [{ label: 'rename', method: 'PATCH', path: `/api/v1/teams/${team}`, body: { name: 'Matrix' }, expect: teamRole(200, ['admin', 'owner']) }],
  },
  'DELETE /api/v1/teams/[slug]': {
    // the team has public skills, so even its owner is refused (409): nobody deletes it here
    cases: () => [{ label: 'delete', method: 'DELETE', path: `/api/v1/teams/${team}`, expect: teamRole(409, ['owner']) }],
  },
  'POST /api/v1/teams/[slug]/invites': {
    cases: () => [{ label: 'invite', method: 'POST', path: `/api/v1/teams/${team}/invites`, body: { role: 'member' }, expect: teamRole(201, ['admin', 'owner']) }],
  },
  'DELETE /api/v1/teams/[slug]/invites/[id]': {
    cases: () => [{ label: 'withdraw', method: 'DELETE', path: `/api/v1/teams/${team}/invites/not-an-invite`, expect: teamRole(404, ['admin', 'owner']) }],
  },
  'POST /api/v1/invites/accept': {
    cases: () => [
      { label: 'a wrong code', method: 'POST', path: '/api/v1/invites/accept', body: { code: 'syi_not-a-real-invitation-code' }, expect: { default: 404, ...PEOPLE_ONLY } },
    ],
  },
  'PATCH /api/v1/teams/[slug]/members/[userId]': {
    cases: () => [
      { label: "the member's role", method: 'PATCH', path: `/api/v1/teams/${team}/members/${users.member}`, body: { role: 'member' }, expect: teamRole(200, ['admin', 'owner']) },
    ],
  },
  'DELETE /api/v1/teams/[slug]/members/[userId]': {
    cases: () => [{ label: 'remove a non-member', method: 'DELETE', path: `/api/v1/teams/${team}/members/${users.stranger}`, expect: teamRole(404, ['admin', 'owner']) }],
  },
  'PUT /api/v1/teams/[slug]/secrets/[name]': {
    cases: () => [{ label: 'set', method: 'PUT', path: `/api/v1/teams/${team}/secrets/MATRIX`, body: { value: 'sk-matrix-value' }, expect: teamRole(204, ['admin', 'owner']) }],
  },
  'DELETE /api/v1/teams/[slug]/secrets/[name]': {
    cases: () => [{ label: 'delete a missing one', method: 'DELETE', path: `/api/v1/teams/${team}/secrets/NOPE`, expect: teamRole(404, ['admin', 'owner']) }],
  },
  'GET /api/v1/teams/[slug]/audit': {
    cases: () => [{ label: 'read', method: 'GET', path: `/api/v1/teams/${team}/audit`, expect: teamRole(200, ['admin', 'owner']), notContaining: 'sk-matrix' }],
  },
};

function initialize() {
  return { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } } };
}

/** Every HTTP method a route module can export (Next.js answers HEAD with GET and OPTIONS itself when they are not exported). */
const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Every route.ts under app/api, with the HTTP methods its module exports (read from the module, not its text). */
async function discoverRoutes(): Promise<{ routes: string[]; withoutMethods: string[] }> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^route\.(ts|tsx|js|mjs)$/.test(e.name)) files.push(p);
    }
  };
  walk(path.join(root, 'app/api'));
  const routes: string[] = [];
  const withoutMethods: string[] = [];
  for (const file of files) {
    const route = '/' + path.relative(path.join(root, 'app'), path.dirname(file)).split(path.sep).join('/');
    const mod = (await import(file)) as Record<string, unknown>;
    // `export const GET = …`, `export { h as GET }`, `export * from …`: all are module exports
    const methods = HTTP_METHODS.filter((m) => typeof mod[m] === 'function');
    if (methods.length === 0) withoutMethods.push(route);
    for (const m of methods) routes.push(`${m} ${route}`);
  }
  return { routes: routes.sort(), withoutMethods };
}

/** Calls the route module's handler for a concrete path with the principal's credentials. */
async function call(c: Case, who: Who): Promise<{ status: number; text: string }> {
  const url = new URL(forWho(c.path, who), 'http://127.0.0.1');
  const params = (k: string) => (k.match(/\[/g) ?? []).length;
  const byStatic = Object.keys(ROUTES).sort((a, b) => params(a) - params(b));
  const key = byStatic.find((k) => {
    const [method, pattern] = k.split(' ');
    if (method !== c.method) return false;
    const re = new RegExp(`^${pattern.replace(/\[\.\.\.[^\]]+\]/g, '.+').replace(/\[[^\]]+\]/g, '[^/]+')}$`);
    return re.test(url.pathname);
  });
  if (!key) throw new Error(`no route for ${c.method} ${url.pathname}`);
  const pattern = key.split(' ')[1];
  const names = [...pattern.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]);
  const values = new RegExp(`^${pattern.replace(/\[[^\]]+\]/g, '([^/]+)')}$`).exec(url.pathname)!.slice(1);
  const routeParams = Object.fromEntries(names.map((nme, i) => [nme, decodeURIComponent(values[i])]));
  const mod = (await import(path.join(root, 'app', pattern, 'route.ts'))) as Record<string, (req: Request, ctx: { params: Promise<unknown> }) => Promise<Response>>;
  const headers: Record<string, string> = { 'x-forwarded-for': `198.51.100.${PRINCIPALS.indexOf(who) + 1}`, accept: 'application/json, text/event-stream' };
  if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
  let body: BodyInit | undefined;
  const raw = c.raw ? forWho(c.raw, who) : undefined;
  if (raw) {
    body = raw.bytes as unknown as BodyInit;
    headers['content-type'] = raw.type;
  } else if (c.body !== undefined) {
    body = JSON.stringify(forWho(c.body, who));
    headers['content-type'] = 'application/json';
  }
  const controller = new AbortController();
  const res = await mod[c.method](new Request(url, { method: c.method, headers, body, signal: controller.signal }), { params: Promise.resolve(routeParams) });
  // event streams stay open: read what is there, then go away
  const text = res.headers.get('content-type')?.includes('event-stream') ? '' : await res.text();
  controller.abort();
  return { status: res.status, text };
}

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  const db = testDb();
  for (const who of ['stranger', 'otherOwner', 'member', 'publisher', 'admin', 'owner'] as const) {
    const handle = `mx-${who.toLowerCase()}-${uniq()}`;
    const u = await db.user.create({ data: { handle, name: who } });
    await db.scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
    users[who] = u.id;
    tokens[who] = (await createApiToken(db, { userId: u.id, name: 'matrix', scopes: ['publish', 'invoke', 'runs', 'teams'] })).token;
  }
  tokens.memberNoScope = (await createApiToken(db, { userId: users.member, name: 'no scope', scopes: [] })).token;
  const as = (id: string) => ({ principal: userPrincipal(id) });
  team = (await createTeam(db, as(users.owner), { slug: `mx-${uniq()}` })).slug;
  other = (await createTeam(db, as(users.otherOwner), { slug: `mx-${uniq()}` })).slug;
  for (const role of ['member', 'publisher', 'admin'] as const) {
    await acceptInvite(db, as(users[role]), (await createInvite(db, as(users.owner), team, { role })).secret);
  }
  tokens.teamToken = (await createTeamApiToken(db, as(users.owner), team, { name: 'ci', scopes: ['publish', 'invoke', 'runs'] })).token;
  tokens.teamTokenInvokeOnly = (await createTeamApiToken(db, as(users.owner), team, { name: 'invoke only', scopes: ['invoke'] })).token;
  // creation refuses `teams` for a team token; a row that holds it anyway (made before) must still manage nothing
  const legacy = await createTeamApiToken(db, as(users.owner), team, { name: 'legacy', scopes: ['publish', 'invoke', 'runs'] });
  await db.apiToken.update({ where: { id: legacy.id }, data: { scopes: ['publish', 'invoke', 'runs', 'teams'] } });
  tokens.teamTokenWithTeams = legacy.token;
  await publish(team, 'pub', '1.0.0', 'public');
  await publish(team, 'unl', '1.0.0', 'unlisted');
  await publish(team, 'priv', '1.0.0', 'private');
  await publish(other, 'pub', '1.0.0', 'public');
  privateRun = (
    await db.run.create({
      data: {
        id: newRunId(),
        config: { skills: [`@${team}/priv`], task: 't', provider: 'manual' },
        userId: users.member,
        visibility: 'private',
        status: 'succeeded',
        principal: `user:${users.member}`,
      },
    })
  ).id;
  const teamId = (await db.team.findUniqueOrThrow({ where: { slug: team } })).id;
  teamRun = (
    await db.run.create({
      data: {
        id: newRunId(),
        config: { skills: [`@${team}/priv`], task: 't', provider: 'manual' },
        userId: users.member,
        teamId,
        visibility: 'private',
        status: 'succeeded',
        principal: `user:${users.member}`,
      },
    })
  ).id;
  unlistedRun = (
    await db.run.create({
      data: {
        id: newRunId(),
        config: { skills: [`@${team}/pub`], task: 't', provider: 'manual' },
        userId: users.member,
        visibility: 'unlisted',
        status: 'succeeded',
        principal: `user:${users.member}`,
      },
    })
  ).id;
}, 120_000);

describe('the authorization matrix', () => {
  it('has an entry for every route and method under app/api, and no route without a method', async () => {
    const { routes, withoutMethods } = await discoverRoutes();
    const missing = routes.filter((r) => !(r in ROUTES));
    const stale = Object.keys(ROUTES).filter((r) => !routes.includes(r));
    expect({ missing, stale, withoutMethods }).toEqual({ missing: [], stale: [], withoutMethods: [] });
    // the scan itself: a route of each shape is found
    expect(routes).toEqual(expect.arrayContaining(['GET /api/health', 'POST /api/v1/teams', 'DELETE /api/mcp', 'GET /api/auth/[...nextauth]']));
  }, 120_000);

  for (const [route, entry] of Object.entries(ROUTES)) {
    if ('skip' in entry) continue;
    it(`${route}: every principal gets its expected answer`, async () => {
      const wrong: string[] = [];
      for (const c of await entry.cases()) {
        for (const who of PRINCIPALS) {
          const want = c.expect[who] ?? c.expect.default;
          const got = await call(c, who);
          if (got.status !== want) wrong.push(`${c.label} as ${who}: ${got.status} (want ${want}) ${got.text.slice(0, 160)}`);
          const outsider = !MEMBERS.includes(who);
          if (c.notContaining && outsider && got.text.includes(c.notContaining)) wrong.push(`${c.label} as ${who}: the answer mentions ${c.notContaining}`);
          // lists answer members with the private skill (so the check above can fail)
          if (c.membersSee && !outsider && !got.text.includes(c.membersSee)) wrong.push(`${c.label} as ${who}: the answer lacks ${c.membersSee}`);
        }
      }
      expect(wrong).toEqual([]);
    }, 120_000);
  }

  it("records the registry actions in the team's scope in its audit log, with the token that made them", async () => {
    const teamId = (await testDb().team.findUniqueOrThrow({ where: { slug: team } })).id;
    const events = await testDb().auditEvent.findMany({ where: { teamId } });
    const actions = new Set(events.map((e) => e.action));
    for (const a of ['skill.publish', 'skill.unyank', 'skill.deprecate', 'skill.tag', 'skill.untag', 'secret.set', 'member.invite', 'team.rename']) {
      expect(actions, a).toContain(a);
    }
    const byTeamToken = events.filter((e) => e.action === 'skill.publish' && e.actorTokenId);
    expect(byTeamToken.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain('sk-matrix');
  });
});
