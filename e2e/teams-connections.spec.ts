// Team connections in Chromium: admin A connects the test OpenID Connect provider for the
// team (a real consent at the IdP); member B runs the team's own copy of connected-api in
// the playground and the demo API sees A's team connection (its subject is A's account);
// the same tool of another scope (@skillyard/connected-api) stays locked for B; after A
// disconnects, the team's tool is locked again for B.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IDP, fillScript, signIn } from './helpers';
import { expect, test, type Browser, type Page } from '@playwright/test';

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const idp = IDP;
const upstream = `${idp}/upstream`;
const origin = `http://localhost:${e2ePort}`;
test.use({ baseURL: origin });

const ROOT = process.cwd();
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/.bin/node')) ? path.join(ROOT, 'node_modules/.bin/node') : process.execPath;

/** Runs api-whoami of `skill` in the playground as `page`'s user, until the run ends. */
async function runWhoami(page: Page, skill: string): Promise<void> {
  await page.goto(`/playground?skill=${encodeURIComponent(skill)}`);
  await expect(page.getByTestId('selected-skill')).toHaveText(new RegExp(skill));
  await page.getByLabel('Provider', { exact: true }).selectOption('scripted');
  await fillScript(page, [
    { text: 'Ask the API who I am.', code: `memory.who = await ctx.invoke('api-whoami', { base_url: '${upstream}' });\nreturn memory.who;` },
    { text: 'Done.', code: 'ctx.finish(memory.who);' },
  ]);
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', /succeeded|failed/, { timeout: 60_000 });
}

async function newPage(browser: Browser, login: string) {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await signIn(page, login);
  return { context, page };
}

test("an admin connects a provider for the team; a member's run of the team's own skill uses it, no other skill does", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
  const [loginA, loginB] = [`ca${stamp}`, `cb${stamp}`];
  const slug = `conn-${stamp}`;

  await signIn(page, loginA);
  await page.goto('/teams/new');
  await page.getByLabel('Team name (scope)').fill(slug);
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${slug}$`));

  const tokens = page.locator('section[aria-labelledby="tokens-h"]');
  await tokens.getByLabel('Token name').fill('cli');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const teamToken = (await tokens.getByTestId('one-time-secret').textContent())?.trim() ?? '';
  const invite = page.getByTestId('invite-form');
  await invite.getByRole('button', { name: 'Create invitation link' }).click();
  const link = (await invite.getByTestId('one-time-secret').textContent())?.trim() ?? '';

  // the team's own copy of connected-api, private
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-teamconn-'));
  try {
    const dir = path.join(work, 'connected-api');
    fs.cpSync(path.join(ROOT, 'skills/connected-api'), dir, { recursive: true });
    const r = spawnSync(NODE, [path.join(ROOT, 'bin/skillyard.mjs'), 'publish', dir, '--scope', `@${slug}`, '--visibility', 'private'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', SKILLYARD_TOKEN: teamToken, SKILLYARD_REGISTRY: origin, SKILLYARD_HOME: path.join(work, 'home') },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  // A connects the provider for the team: consent at the IdP, back to the workspace
  await page.goto(`/teams/${slug}`);
  const connect = page.getByTestId('team-connect-form');
  await connect.getByLabel('Provider').selectOption({ label: 'Test IdP' });
  await connect.getByLabel('Scopes').fill('api:read');
  await connect.getByRole('button', { name: 'Connect for the team' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp}/interaction/`));
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${slug}$`));
  await expect(page.getByTestId('team-connections')).toContainText('@oauth/oidc');
  await expect(page.getByTestId('team-connections')).toContainText('api:read');
  await expect(page.getByTestId('audit-log')).toContainText('connection.add @oauth/oidc');
  const shots = path.join(ROOT, '.data/screenshots');
  fs.mkdirSync(shots, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator('section[aria-labelledby="connections-h"]').screenshot({ path: path.join(shots, `teams-connections-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // B joins and runs the team's skill: the demo API sees the team's connection (A's account)
  const b = await newPage(browser, loginB);
  await b.page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await b.page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(b.page).toHaveURL(new RegExp(`/teams/${slug}$`));
  await expect(b.page.getByTestId('team-connections')).toContainText('@oauth/oidc');
  await expect(b.page.getByTestId('team-connect-form')).toHaveCount(0);
  // the skill page tells B the team's connection unlocks its tools (no disconnect of B's own)
  await b.page.goto(`/skills/${slug}/connected-api`);
  await expect(b.page.getByTestId('unlocked-tools')).toContainText(/api.whoami/);
  await expect(b.page.getByTestId('unlocked-via-team')).toContainText(`@${slug}`);
  await expect(b.page.getByTestId('unlock-group')).toHaveCount(0);
  await b.page.goto('/skills/skillyard/connected-api');
  await expect(b.page.getByTestId('unlock-group').filter({ hasText: 'Test IdP' })).toBeVisible();
  await runWhoami(b.page, `@${slug}/connected-api`);
  await expect(b.page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(b.page.getByTestId('timeline')).toContainText(loginA);

  // the same tool of another scope does not get the team's connection
  await runWhoami(b.page, '@skillyard/connected-api');
  await expect(b.page.getByTestId('timeline')).toContainText(/is locked: it needs @oauth\/oidc/);
  await expect(b.page.getByTestId('timeline')).not.toContainText(loginA);

  // A disconnects: B's next run of the team's skill no longer has it
  await page.goto(`/teams/${slug}`);
  await page.getByRole('button', { name: 'Disconnect Test IdP' }).click();
  await expect(page.getByTestId('team-connections')).toHaveCount(0);
  await runWhoami(b.page, `@${slug}/connected-api`);
  await expect(b.page.getByTestId('timeline')).toContainText(/is locked: it needs @oauth\/oidc/);
  await expect(b.page.getByTestId('timeline')).not.toContainText(loginA);
  await b.context.close();
});
