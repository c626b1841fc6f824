// Issue 12's Chromium test: user A signs in at the real OpenID Connect server, creates a
// team, sets a team secret, makes a team API token and an invitation link; user B (a
// second browser context) signs in and accepts; A publishes a private skill into the
// team's scope with the CLI and the team token; the skill's tool reads the secret through
// the `environment` capability; B runs it in the playground and sees the secret's effect
// (its last four characters, never the value); the run is on the team's workspace for A;
// user C (a third context, signed in) finds no trace of any of it: skill page, search,
// the API, the tarball, the playground picker, B's run page and its share link, the
// workspace. Screenshots of the workspace at 1280 and 390 px go to .data/screenshots/.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fillScript, signIn } from './helpers';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
// the OAuth callback URL is built on the server's host name (localhost): browse that origin
const origin = `http://localhost:${e2ePort}`;
test.use({ baseURL: origin });

const ROOT = process.cwd();
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/.bin/node')) ? path.join(ROOT, 'node_modules/.bin/node') : process.execPath;
const FIXTURE = path.join(ROOT, 'e2e/fixtures/team-greeter');
const SHOTS = path.join(ROOT, '.data/screenshots');

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(NODE, [path.join(ROOT, 'bin/skillyard.mjs'), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

async function newUser(browser: Browser, login: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await signIn(page, login);
  return { context, page };
}

test('a team shares a private skill that reads its secret; a member runs it; an outsider finds no trace', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
  const [loginA, loginB, loginC] = ['a', 'b', 'c'].map((x) => `${x}${stamp}`);
  const slug = `team-${stamp}`;
  const skill = `@${slug}/team-greeter`;
  const secretTail = crypto.randomBytes(3).toString('hex').toUpperCase().slice(0, 4);
  const secret = `sk-e2e-${crypto.randomBytes(12).toString('hex')}${secretTail}`;

  // A: sign in, create the team
  await signIn(page, loginA);
  await page.goto('/teams/new');
  await page.getByLabel('Team name (scope)').fill(slug);
  await page.getByLabel('Display name').fill('E2E Team');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${slug}$`));
  await expect(page.getByTestId('team-name')).toHaveText('E2E Team');
  // the sole owner is not offered "Leave team" (the server refuses it): told what to do instead
  await expect(page.getByTestId('team-members').getByRole('button', { name: 'Leave team' })).toHaveCount(0);
  await expect(page.getByTestId('sole-owner')).toContainText('make someone else an owner');

  // a team secret: write-only, the value never comes back
  const secrets = page.getByTestId('secret-form');
  await secrets.getByLabel('Secret name').fill('TEAM_API_KEY');
  await secrets.getByLabel('Secret value').fill(secret);
  await secrets.getByRole('button', { name: 'Save secret' }).click();
  await expect(page.getByTestId('team-secrets')).toContainText('TEAM_API_KEY');
  await page.reload();
  await expect(page.getByTestId('team-secrets')).toContainText('TEAM_API_KEY');
  expect(await page.content()).not.toContain(secret);

  // a team API token (shown once) for the CLI
  const tokens = page.locator('section[aria-labelledby="tokens-h"]');
  await tokens.getByLabel('Token name').fill('e2e-cli');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const teamToken = (await tokens.getByTestId('one-time-secret').textContent())?.trim() ?? '';
  expect(teamToken).toMatch(/^sy_[0-9a-f]+_/);

  // an invitation link
  const invite = page.getByTestId('invite-form');
  await invite.getByLabel('Role').selectOption('member');
  await invite.getByRole('button', { name: 'Create invitation link' }).click();
  const link = (await invite.getByTestId('one-time-secret').textContent())?.trim() ?? '';
  expect(link).toContain(`/teams/join?code=syi_`);

  // B: a second browser, signs in and accepts
  const b = await newUser(browser, loginB);
  await b.page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await b.page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(b.page).toHaveURL(new RegExp(`/teams/${slug}$`));
  await expect(b.page.getByText('you are a member')).toBeVisible();
  // a member sees the secret's name, never a form to read or change it
  await expect(b.page.getByTestId('team-secrets')).toContainText('TEAM_API_KEY');
  await expect(b.page.getByTestId('secret-form')).toHaveCount(0);

  // A publishes the private skill into the team's scope with the CLI and the team token
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-teams-'));
  try {
    const dir = path.join(work, 'team-greeter');
    fs.cpSync(FIXTURE, dir, { recursive: true });
    const env = { SKILLYARD_TOKEN: teamToken, SKILLYARD_REGISTRY: origin, SKILLYARD_HOME: path.join(work, 'home') };
    const pub = cli(['publish', dir, '--scope', `@${slug}`, '--visibility', 'private'], env);
    expect(pub.code, pub.out + pub.err).toBe(0);
    expect(pub.out).toContain(`published ${skill}@1.0.0`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  await page.goto(`/teams/${slug}`);
  await expect(page.getByTestId('team-skills')).toContainText(skill);
  await expect(page.getByTestId('team-skills')).toContainText('private');

  // B runs it in the playground: the tool read the team's secret
  await b.page.goto(`/playground?skill=${encodeURIComponent(skill)}`);
  await expect(b.page.getByTestId('selected-skill')).toHaveText(new RegExp(skill));
  await b.page.getByLabel('Provider', { exact: true }).selectOption('scripted');
  const script = [
    { text: 'Greet with the team key.', code: `memory.g = await ctx.invoke('greet', { name: 'Bea' });\nreturn memory.g;` },
    { text: 'Done.', code: 'ctx.finish(memory.g);' },
  ];
  await fillScript(b.page, script);
  await b.page.getByTestId('start-run').click();
  await expect(b.page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/);
  const runPath = new URL(b.page.url()).pathname;
  const runId = runPath.split('/').at(-1)!;
  await expect(b.page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(b.page.getByTestId('timeline')).toContainText(`the team key ends with ${secretTail}`);
  expect(await b.page.content()).not.toContain(secret);

  // the run is the team's: on the workspace for A, whose link opens it
  await page.goto(`/teams/${slug}`);
  const runs = page.getByTestId('team-runs');
  await expect(runs).toContainText(skill);
  await expect(runs).toContainText(`@${loginB}`);
  await expect(runs).toContainText('private');
  await runs.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`${runPath}$`));
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');

  // screenshots of the workspace, wide and narrow
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.goto(`/teams/${slug}`);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `teams-workspace-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // C: signed in, outside the team: nothing anywhere
  const c = await newUser(browser, loginC);
  const gone = async (url: string) => {
    const res = await c.page.goto(url);
    expect(res?.status(), url).toBe(404);
    // the URL's own words come back in the page's data; the skill's description, the team's
    // name and the run's result must not
    const html = await c.page.content();
    for (const trace of ['hint of the team', 'E2E Team', 'the team key ends with']) expect(html, url).not.toContain(trace);
  };
  await gone(`/skills/${slug}/team-greeter`);
  await gone(`/teams/${slug}`);
  await gone(runPath);

  // search on the home page and through the API
  await c.page.goto('/?q=team-greeter');
  await expect(c.page.getByTestId('skill-card').filter({ hasText: slug })).toHaveCount(0);
  expect(await c.page.content()).not.toContain(slug);
  const api = c.context.request;
  const search = await api.get(`/api/v1/skills?q=team-greeter`);
  expect(search.status()).toBe(200);
  expect(await search.text()).not.toContain(slug);
  // each answer is the one for something that does not exist (the name asked for echoed)
  const fakeRun = crypto.randomBytes(16).toString('hex');
  const fakeSlug = `nobody-${stamp}`;
  for (const [url, real, fake] of [
    [`/api/v1/skills/${slug}/team-greeter`, 'team-greeter', 'no-such-skill'],
    [`/api/v1/skills/${slug}/team-greeter/versions`, 'team-greeter', 'no-such-skill'],
    [`/api/v1/skills/${slug}/team-greeter/1.0.0/tarball`, 'team-greeter', 'no-such-skill'],
    [`/api/v1/runs/${runId}`, runId, fakeRun],
    [`/api/v1/runs/${runId}/events?after=999999`, runId, fakeRun],
    [`/api/v1/teams/${slug}`, slug, fakeSlug],
  ]) {
    const res = await api.get(url);
    const missing = await api.get(url.replace(real, fake));
    expect(res.status(), url).toBe(404);
    expect(missing.status(), url).toBe(404);
    expect(await res.text(), url).toBe((await missing.text()).replaceAll(fake, real));
  }
  // the playground picker, searched and named in the URL
  const picker = await api.get(`/api/v1/playground/skills?q=team-greeter`);
  expect(await picker.text()).not.toContain(slug);
  await c.page.goto(`/playground?skill=${encodeURIComponent(skill)}`);
  await expect(c.page.getByTestId('playground-notice')).toContainText('There is no skill');
  await expect(c.page.getByTestId('selected-skill').filter({ hasText: slug })).toHaveCount(0);
  await c.page.getByTestId('skill-search').fill('team-greeter');
  await c.page.waitForTimeout(600);
  await expect(c.page.getByTestId('skill-option').filter({ hasText: slug })).toHaveCount(0);
  // the share link and a re-run from it
  await c.page.goto(`/playground?from=${runId}`);
  await expect(c.page.getByTestId('playground-notice')).toContainText('There is no run');
  expect(await c.page.content()).not.toContain('the team key ends with');
  // C's own runs list holds nothing of it
  await c.page.goto('/runs');
  await expect(c.page.getByTestId('no-runs')).toBeVisible();

  await b.context.close();
  await c.context.close();
});
