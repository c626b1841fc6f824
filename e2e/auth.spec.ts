// Issue 10's done-when in a real browser: sign in at a real OpenID Connect server, see a
// gated tool locked with its unlock button, connect (incremental consent), run the tool in
// the playground (the upstream API sees the token), let the token expire and see it
// refreshed, disconnect and see the tool locked again. The OIDC server and its upstream
// run next to the app (scripts/e2e-server.ts); /test/state tells what the upstream saw.
import { fillScript } from './helpers';
import { expect, test, type Page } from '@playwright/test';

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const idp = `http://127.0.0.1:${Number(process.env.E2E_OIDC_PORT ?? e2ePort + 1000)}`;
const upstream = `${idp}/upstream`;
const SKILL = '/skills/skillyard/connected-api';

// The browser uses 127.0.0.1 (playwright.config.ts): Next.js rewrites that host to
// "localhost" in a route handler's URL, which once broke the code exchange there
// (lib/api/auth-handler.ts). The printed URL, localhost, is checked below as well.

type UpstreamState = { upstreamCalls: Array<{ path: string; token: string; ok: boolean; scopes: string[] }>; refreshGrants: number };

async function idpState(set?: { accessTokenTtl: number }): Promise<UpstreamState> {
  const res = await fetch(`${idp}/test/state`, set ? { method: 'POST', body: new URLSearchParams({ accessTokenTtl: String(set.accessTokenTtl) }) } : {});
  return (await res.json()) as UpstreamState;
}

async function consent(page: Page) {
  await expect(page).toHaveURL(new RegExp(`^${idp}/interaction/`));
  await page.getByRole('button', { name: 'Allow' }).click();
}

async function runWhoami(page: Page, expect_: 'succeeded' | 'locked' = 'succeeded'): Promise<void> {
  await page.goto('/playground?skill=%40skillyard%2Fconnected-api');
  await expect(page.getByTestId('selected-skill')).toHaveText(/@skillyard\/connected-api/);
  await page.getByLabel('Provider', { exact: true }).selectOption('scripted');
  const call = { text: 'Ask the API who I am.', code: `memory.who = await ctx.invoke('api-whoami', { base_url: '${upstream}' });\nreturn memory.who;` };
  // locked: the call fails and nothing finishes, so the run fails (run-outcome.ts)
  const script = expect_ === 'locked' ? [call, { text: 'Could not.', code: '' }] : [call, { text: 'Done.', code: 'ctx.finish(memory.who);' }];
  await fillScript(page, script);
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', expect_ === 'locked' ? 'failed' : 'succeeded', { timeout: 30_000 });
}

test('sign in, connect to unlock a gated tool, run it, refresh the token, disconnect', async ({ page }) => {
  test.setTimeout(180_000);
  const login = `e2e${Date.now().toString(36)}`;
  await idpState({ accessTokenTtl: 3600 });

  // sign in at the OpenID Connect server
  await page.goto('/');
  await page.getByTestId('sign-in-link').click();
  await expect(page.getByRole('heading', { name: 'Sign in to Skillyard' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue with Test IdP' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp}/interaction/`));
  await page.getByLabel('Login').fill(login);
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();
  await consent(page);
  // first sign-in picks the username (= scope)
  await expect(page).toHaveURL(/\/welcome/);
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(`@${login}`);

  // the gated tools are locked, with the button that unlocks them
  await page.goto(SKILL);
  const group = page.getByTestId('unlock-group').filter({ hasText: 'Test IdP' });
  // signed in with the provider, the connection exists but lacks the scope: say that
  await expect(group).toContainText('Your Test IdP connection lacks api:read: connect Test IdP again with api:read to unlock 2 tools');
  await expect(page.getByTestId('unlocked-tools')).toHaveCount(0);
  // the playground shows the same plan
  await page.goto('/playground?skill=%40skillyard%2Fconnected-api');
  await expect(page.getByTestId('unlock-group').filter({ hasText: 'Test IdP' })).toContainText('to unlock 2 tools');

  // connect with the scope the tools need; its access token lives 20 s
  await idpState({ accessTokenTtl: 20 });
  await page.goto(SKILL);
  await page.getByTestId('connect-button').click();
  await expect(page.locator('[data-scopes]')).toContainText('api:read');
  await consent(page);
  await expect(page).toHaveURL(new RegExp(`${SKILL}$`));
  await expect(page.getByTestId('unlocked-tools')).toContainText('api-whoami');
  await expect(page.getByTestId('unlock-group')).toHaveCount(0);

  // run the tool in the playground: the upstream sees a valid bearer
  const before = await idpState();
  await runWhoami(page);
  await expect(page.getByTestId('timeline')).toContainText(login);
  const afterFirst = await idpState();
  const firstCall = afterFirst.upstreamCalls.at(-1)!;
  expect(afterFirst.upstreamCalls.length).toBe(before.upstreamCalls.length + 1);
  expect(firstCall).toMatchObject({ path: '/upstream/me', ok: true });
  expect(firstCall.scopes).toContain('api:read');
  // nothing of the token reaches the page
  expect(await page.content()).not.toContain(firstCall.token);

  // let it expire: the next run refreshes it first, and the upstream accepts the new one
  await idpState({ accessTokenTtl: 3600 });
  await page.waitForTimeout(21_000);
  await runWhoami(page);
  const afterRefresh = await idpState();
  const secondCall = afterRefresh.upstreamCalls.at(-1)!;
  expect(afterRefresh.refreshGrants).toBe(afterFirst.refreshGrants + 1);
  expect(secondCall.ok).toBe(true);
  expect(secondCall.token).not.toBe(firstCall.token);
  expect(await page.content()).not.toContain(secondCall.token);

  // disconnect: locked again
  await page.goto(SKILL);
  await page.getByTestId('disconnect-button').first().click();
  await expect(page.getByTestId('unlock-group').filter({ hasText: 'Test IdP' })).toContainText('to unlock 2 tools');
  await expect(page.getByTestId('unlocked-tools')).toHaveCount(0);
  // a run calling the locked tool fails and says what unlocks it, not just "not available"
  await runWhoami(page, 'locked');
  await expect(page.getByTestId('timeline')).toContainText('tool "api-whoami" is locked: it needs @oauth/oidc (api:read); to unlock it: connect');
  await expect(page.getByTestId('timeline')).not.toContainText('not available to this agent');

  // My runs lists the three runs as this user's
  await page.goto('/runs');
  await expect(page.getByTestId('my-runs').locator('li')).toHaveCount(3);
});

test('sign-in through the provider works on the printed URL (localhost) too', async ({ page }) => {
  const login = `lh${Date.now().toString(36)}`;
  await page.goto(`http://localhost:${e2ePort}/signin`);
  await page.getByRole('button', { name: 'Continue with Test IdP' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp}/interaction/`));
  await page.getByLabel('Login').fill(login);
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();
  await consent(page);
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${e2ePort}/welcome`));
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(`@${login}`);
});

test('the sign-in page says where the e-mail link goes; a provider error shows what happened', async ({ page }) => {
  await page.goto('/signin?callbackUrl=https%3A%2F%2Fevil.example%2Fsteal');
  await expect(page.getByTestId('email-log-mode')).toContainText("printed to the server's log");
  await page.getByLabel('E-mail address').fill('someone@example.com');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByTestId('check-email')).toContainText('server’s log');
  // an OAuth callback error lands on a page that says what happened
  await page.goto('/api/auth/callback/oidc?error=access_denied&state=x');
  await expect(page.getByTestId('signin-error')).toBeVisible();
});
