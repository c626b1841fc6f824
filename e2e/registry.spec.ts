import { expect, test } from '@playwright/test';

test('the home page lists the bundled skills from Postgres', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Skills for AI agents' })).toBeVisible();
  const cards = page.getByTestId('skill-card');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(10);
  // every seed format is represented
  const badges = await page.getByTestId('format-badge').allTextContents();
  for (const label of ['Agent Skill', '.skill.md', 'Code skill', 'malv', 'Rye']) expect(badges).toContain(label);
});

test('search narrows the list and says so', async ({ page }) => {
  await page.goto('/');
  const all = await page.getByTestId('skill-card').count();
  await page.getByRole('searchbox', { name: 'Search skills' }).or(page.getByLabel('Search skills')).fill('zzzz-no-such-skill');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No skills found.')).toBeVisible();
  await page.goto('/?format=malv');
  const malv = await page.getByTestId('skill-card').count();
  expect(malv).toBeGreaterThanOrEqual(2);
  expect(malv).toBeLessThan(all);
});

test('a skill page shows its tools and safely rendered instructions', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('skill-card').filter({ hasText: 'Agent Skill' }).first().click();
  await expect(page).toHaveURL(/\/skills\/skillyard\/[a-z0-9-]+$/);
  await expect(page.getByRole('heading', { name: 'Tools' })).toBeVisible();
  await expect(page.getByTestId('file-list')).toContainText('SKILL.md');
  // no script or raw HTML from a skill reaches the page
  expect(await page.locator('[data-testid="instructions"] script').count()).toBe(0);
});

test('an unknown skill is a 404 page', async ({ page }) => {
  const response = await page.goto('/skills/skillyard/no-such-skill');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
});

test('/api/health reports the database', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe('ok');
  expect(body.database.ok).toBe(true);
  expect(body.database.migrations).toBeGreaterThanOrEqual(1);
});
