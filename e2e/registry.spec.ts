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

test('home: the format filter applies at once with the card names and counts; sort; empty state with suggestions', async ({ page }) => {
  await page.goto('/');
  const filter = page.getByTestId('format-filter');
  const malv = filter.getByRole('link', { name: /^malv \(\d+\)$/ });
  const count = Number((await malv.textContent())?.match(/\((\d+)\)/)?.[1]);
  expect(count).toBeGreaterThanOrEqual(2);
  await malv.click();
  await expect(page).toHaveURL(/format=malv/);
  await expect(page.getByTestId('skill-card')).toHaveCount(count);
  for (const badge of await page.getByTestId('format-badge').allTextContents()) expect(badge).toBe('malv');
  await expect(filter.getByRole('link', { name: /^malv/ })).toHaveAttribute('aria-current', 'page');

  await page.getByTestId('sort').getByRole('link', { name: 'Recent' }).click();
  await expect(page).toHaveURL(/sort=recent/);
  await expect(page).toHaveURL(/format=malv/);

  await page.goto('/?q=zzzzqqqq');
  await expect(page.getByTestId('empty-state')).toContainText('No skills found.');
  await page.getByTestId('empty-state').getByRole('link', { name: 'Try “text”' }).click();
  await expect(page.getByTestId('skill-card').first()).toBeVisible();
});

test('a skill page is a package page: readme, parameters with enums and defaults, files with highlighted source, facts', async ({ page }) => {
  await page.goto('/skills/skillyard/slugify');
  await expect(page).toHaveTitle(/@skillyard\/slugify@[\d.]+ · Skillyard/);
  expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toContain('@skillyard/slugify');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByTestId('install-command')).toContainText('@skillyard/slugify');
  const table = page.getByTestId('param-table').first();
  await expect(table).toContainText('text');
  // enum values in the type column (defaults fill the same table when a schema has them: lib/forms tests)
  await expect(table.getByTestId('param-type').filter({ hasText: '"-" | "_" | "."' })).toBeVisible();
  await expect(table).toContainText('required');
  await expect(page.getByTestId('scan')).toContainText(/Scanned|Not scanned/);
  await expect(page.getByTestId('license')).toBeVisible();
  await expect(page.getByTestId('owner')).toContainText('@skillyard');
  // a file opens highlighted
  await page.getByTestId('file-list').getByRole('link').first().click();
  await expect(page.getByTestId('file-source')).toBeVisible();
  await expect(page.locator('[data-testid="file-source"] .shiki, [data-testid="file-source"] pre').first()).toBeVisible();
  // every version is openable
  await page.getByTestId('versions').getByRole('link').first().click();
  await expect(page).toHaveURL(/version=/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('slugify');
});

test('the try form on a skill page runs the tool and shows result and time', async ({ page }) => {
  await page.goto('/skills/skillyard/text-stats');
  const tool = page.locator('[data-testid="tool"]').first();
  await tool.getByText(/^Try /).click();
  const form = tool.getByTestId('tool-form');
  const first = form.locator('textarea, input[type="text"]').first();
  await first.fill('one two three');
  await form.getByTestId('tool-form-run').click();
  await expect(form.getByTestId('tool-form-result').or(form.getByTestId('tool-form-error'))).toBeVisible();
  await expect(form.getByTestId('tool-form-ms')).toHaveText(/\d+ ms/);
});

test('gated tools on a skill page say what unlocks them', async ({ page }) => {
  await page.goto('/skills/skillyard/github-repos');
  await expect(page.getByTestId('tool-locked').first()).toContainText('@oauth/github');
  await expect(page.getByText(/log in with GitHub \(@oauth\/github\) unlocks it/).first()).toBeVisible();
});

test('the API reference is rendered from the OpenAPI document', async ({ page }) => {
  await page.goto('/api-reference');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('API reference');
  expect(await page.getByTestId('api-operation').count()).toBeGreaterThanOrEqual(5);
  await expect(page.getByText('/api/v1/tools/{name}/invoke').first()).toBeVisible();
});

test('a favicon is served', async ({ request }) => {
  const res = await request.get('/icon.svg');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('svg');
});
