// Issue 25's smaller fixes in Chromium, at 1440 and 390 px with axe: lock hints in words,
// the header's "Sign in" bringing you back, a visible keyboard focus ring, the run header
// ("succeeded, N calls failed", no "0 events" flash), private runs, and no hydration
// error on an unknown ?skill=.
import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations, fillScript, signIn } from './helpers';

const shot = (page: Page, name: string, width: number) => page.screenshot({ path: `test-results/issue25-${name}-${width}.png`, fullPage: false });

for (const width of [1440, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('lock hints say what unlocks a tool, in words', async ({ page }) => {
      await page.goto('/skills/skillyard/notebook');
      const hint = page.locator('[data-testid="tool"][data-tool="add-note"] [data-testid="tool-lock"]');
      await expect(hint).toHaveText(
        /^Locked: run open-notebook first \(it gives you a @skillyard\/notebook token; signed out, it lasts only for the rest of one playground run, so sign in to keep it\)\.$/,
      );
      // never the old doubled wording
      await expect(page.getByText('(it issues @skillyard/notebook notebook) (@skillyard/notebook)')).toHaveCount(0);
      await expectNoViolations(page, 'notebook page');
      await shot(page, 'notebook', width);
      await page.goto('/skills/skillyard/github-repos');
      await expect(page.getByTestId('tool-lock').first()).toHaveText('Locked: connect GitHub.');
      await page.goto('/');
      await expect(page.getByTestId('card-locked-tools').first()).toContainText('has locked tools');
      await expectNoViolations(page, 'home');
    });

    test('a locked tool’s first run fails and says what unlocks it; the header is opaque', async ({ page }) => {
      await page.goto('/playground?skill=@skillyard/github-repos');
      await expect(page.getByLabel('Turn 1 message', { exact: true })).toHaveValue(/locked for you \(connect GitHub\)/);
      await shot(page, 'playground-gated', width);
      await page.getByTestId('start-run').click();
      await expect(page).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/, { timeout: 30_000 });
      await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
      await expect(page.getByTestId('run-outcome')).toContainText('to unlock it: connect GitHub');
      const bg = await page.getByTestId('run-header').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg).toMatch(/^rgb\(/); // opaque: rgb(), not rgba() with alpha
      await expectNoViolations(page, 'failed run');
      await shot(page, 'run-failed', width);
    });

    test('a run that got past a failed call says so beside "succeeded"', async ({ page }) => {
      await page.goto('/playground?skill=@skillyard/slugify');
      await fillScript(page, [
        { text: 'First try, wrong arguments.', code: "try { await ctx.invoke('slugify', { nope: 1 }); } catch { }\nreturn 1;" },
        { text: 'Then right.', code: "ctx.finish(await ctx.invoke('slugify', { text: 'Got There' }));" },
      ]);
      await page.getByTestId('start-run').click();
      await expect(page).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/, { timeout: 30_000 });
      const status = page.getByTestId('run-status');
      await expect(status).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
      await expect(status).toHaveText('succeeded, 1 call failed');
      await expect(page.getByTestId('run-outcome-status')).toHaveText('succeeded, 1 call failed');
      await expectNoViolations(page, 'recovered run');
      await shot(page, 'run-recovered', width);
    });

    test('keyboard focus is a clearly visible ring', async ({ page }) => {
      await page.goto('/');
      await page.keyboard.press('Tab');
      const focused = page.locator(':focus');
      await expect(focused).toHaveCount(1);
      const outline = await focused.evaluate((el) => {
        const s = getComputedStyle(el);
        return { width: s.outlineWidth, style: s.outlineStyle, offset: s.outlineOffset };
      });
      expect(outline).toEqual({ width: '3px', style: 'solid', offset: '2px' });
      await page
        .getByLabel(/search/i)
        .first()
        .focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await shot(page, 'focus', width);
    });
  });
}

test('the header’s Sign in brings you back to the page you were on', async ({ page }) => {
  await page.goto('/skills/skillyard/slugify');
  await expect(page.getByTestId('sign-in-link')).toHaveAttribute('href', '/signin?next=%2Fskills%2Fskillyard%2Fslugify');
  await page.goto('/?q=slug');
  await expect(page.getByTestId('sign-in-link')).toHaveAttribute('href', '/signin?next=%2F%3Fq%3Dslug');
});

test('/playground?skill= naming an unknown skill hydrates without errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/playground?skill=@skillyard/nope');
  await expect(page.getByTestId('playground-notice')).toContainText('There is no skill @skillyard/nope');
  await page.waitForLoadState('networkidle');
  expect(errors.filter((e) => /hydrat/i.test(e))).toEqual([]);
});

test('a signed-in person can start a private run, and it shows as Private when edited', async ({ page }) => {
  await signIn(page, `p${Date.now().toString(36)}`);
  await page.goto('/playground?skill=@skillyard/slugify');
  const visibility = page.getByLabel('Visibility');
  await visibility.selectOption('private');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/, { timeout: 30_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await page.getByTestId('edit-rerun').click();
  await expect(page.getByLabel('Visibility')).toHaveValue('private');
});
