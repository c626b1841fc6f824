import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './helpers';

// Every page kind, at desktop and at 390 px: axe finds no WCAG 2.2 A/AA violation, and
// nothing is wider than the viewport.
async function runPath(page: Page): Promise<string> {
  await page.goto('/playground?skill=@skillyard/slugify');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/, { timeout: 30_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', /succeeded|failed/, { timeout: 30_000 });
  return new URL(page.url()).pathname;
}

const PAGES = [
  '/',
  '/?q=zzzzqqqq',
  '/?format=malv&sort=downloads',
  '/?perPage=4&page=2&sort=recent',
  '/?gated=1&signed=1&tag=csv',
  '/skills/skillyard/rye-text',
  '/skills/skillyard/slugify',
  '/skills/skillyard/github-repos',
  '/skills/skillyard/text-stats',
  '/skills/skillyard/slugify?file=slugify.skill.md',
  '/playground',
  '/playground?skill=@skillyard/text-stats',
  '/playground?skill=@nobody/nothing',
  '/api-reference',
  '/skills/skillyard/no-such-skill',
  '/signin',
];

async function expectNoOverflow(page: Page, path: string) {
  const { doc, view } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(doc, `document width on ${path}`).toBe(view);
}

// one run to look at, made once (its page is the last path checked)
let runPathname = '';
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  runPathname = await runPath(page);
  await page.close();
});

for (const width of [1280, 390]) {
  for (const path of [...PAGES, 'RUN']) {
    test(`${path === 'RUN' ? 'a finished run' : path} at ${width} px: one h1, no horizontal overflow, no axe violations`, async ({ page }) => {
      const target = path === 'RUN' ? runPathname : path;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(target);
      if (path === 'RUN') await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', /succeeded|failed/, { timeout: 30_000 });
      await expect(page.locator('h1'), `one h1 on ${target}`).toHaveCount(1);
      await expectNoOverflow(page, target);
      await expectNoViolations(page, target);
    });
  }
}

test('the skip link moves focus to the content', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('the run page announces its status and new turns politely', async ({ page }) => {
  await runPath(page);
  await expect(page.getByTestId('run-live')).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByTestId('run-live')).toContainText(/Run (succeeded|failed): \d+ turns?/);
});
