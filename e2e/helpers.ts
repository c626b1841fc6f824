// Shared steps of the Chromium specs: signing in at the test IdP, typing a script into
// the playground's per-turn editor, and axe's WCAG 2.2 A/AA check of a page.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
/** The test OIDC provider that playwright.config.ts starts beside the app. */
export const IDP = `http://127.0.0.1:${Number(process.env.E2E_OIDC_PORT ?? e2ePort + 1000)}`;

export type ScriptTurn = { text: string; code: string };

/** Signs in at the test IdP as `login` and picks the same username on first sign-in. */
export async function signIn(page: Page, login: string): Promise<void> {
  await page.goto('/');
  await page.getByTestId('sign-in-link').click();
  await page.getByRole('button', { name: 'Continue with Test IdP' }).click();
  await expect(page).toHaveURL(new RegExp(`^${IDP}/interaction/`));
  await page.getByLabel('Login').fill(login);
  await page.getByRole('button', { name: 'Sign in to Test IdP' }).click();
  await expect(page).toHaveURL(new RegExp(`^${IDP}/interaction/`));
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page).toHaveURL(/\/welcome/);
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(`@${login}`);
}

/** Types a script into the playground's editor, one block per turn. */
export async function fillScript(page: Page, script: ScriptTurn[]): Promise<void> {
  const removes = page.getByRole('button', { name: /^Remove turn/ });
  while ((await page.getByTestId('script-turn').count()) > 1) await removes.last().click();
  for (const [i, turn] of script.entries()) {
    if (i > 0) await page.getByTestId('add-turn').click();
    await page.getByLabel(`Turn ${i + 1} message`, { exact: true }).fill(turn.text);
    await page.getByLabel(`Turn ${i + 1} code`, { exact: true }).fill(turn.code);
  }
}

/** axe finds no WCAG 2.2 A/AA violation on the page, or in the `include`d parts (the first three nodes of each are named). */
export async function expectNoViolations(page: Page, what: string, include: string[] = []): Promise<void> {
  const builder = include.reduce((b, selector) => b.include(selector), new AxeBuilder({ page }));
  const results = await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    ),
    `axe on ${what}`,
  ).toEqual([]);
}
