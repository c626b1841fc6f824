// The pages a signed-in person sees, at desktop and at 390 px: one h1, nothing wider than
// the viewport, no axe (WCAG 2.2 A/AA) violation, and the header's account corner (the
// workspace switcher and the avatar menu) on screen, its menu inside the viewport.
import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './helpers';
import { createPublisher, createSession } from './publish-fixtures';

const PAGES = ['/', '/publish', '/settings', '/teams', '/teams/new', '/runs', '/skills/skillyard/text-stats', '/playground', '/api-reference'];

let sessionToken = '';
test.beforeAll(async () => {
  const { userId } = await createPublisher(`a11y-${crypto.randomBytes(3).toString('hex')}`);
  sessionToken = await createSession(userId);
});

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'authjs.session-token', value: sessionToken, url: baseURL! }]);
});

async function expectInViewport(page: Page, testId: string, width: number) {
  const box = await page.getByTestId(testId).boundingBox();
  expect(box, `${testId} is drawn`).not.toBeNull();
  expect(box!.x, `${testId} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${testId} right edge at ${width} px`).toBeLessThanOrEqual(width);
}

for (const width of [1280, 390]) {
  for (const path of PAGES) {
    test(`signed in, ${path} at ${width} px: one h1, no horizontal overflow, the account corner on screen, no axe violations`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await expect(page.getByTestId('account-menu')).toBeVisible();
      await expect(page.locator('h1'), `one h1 on ${path}`).toHaveCount(1);
      const { doc, view } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
      expect(doc, `document width on ${path}`).toBeLessThanOrEqual(view);
      await expectInViewport(page, 'account-menu', width);
      await expectInViewport(page, 'workspace-switcher', width);
      await expectNoViolations(page, path);
    });
  }
}

test('at 390 px the header keeps the logo and the avatar on its first row, and the opened account menu fits', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/');
  const logo = await page.getByRole('link', { name: 'Skillyard', exact: true }).boundingBox();
  const avatar = await page.getByTestId('account-menu').locator('summary').boundingBox();
  expect(logo && avatar).toBeTruthy();
  // same row: the avatar's vertical middle lies within the logo's height
  expect(Math.abs(avatar!.y + avatar!.height / 2 - (logo!.y + logo!.height / 2))).toBeLessThan(logo!.height / 2);
  // every main link is on screen
  for (const name of ['Skills', 'Playground', 'Publish', 'API']) {
    const box = await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).boundingBox();
    expect(box!.x + box!.width, `${name} on screen`).toBeLessThanOrEqual(390);
  }
  await page.getByTestId('account-menu').locator('summary').click();
  const settings = page.getByTestId('account-menu').getByRole('link', { name: 'Settings' });
  await expect(settings).toBeVisible();
  const menu = await settings.boundingBox();
  expect(menu!.x).toBeGreaterThanOrEqual(0);
  expect(menu!.x + menu!.width).toBeLessThanOrEqual(390);
  const { doc, view } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(doc).toBeLessThanOrEqual(view);
});
