import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { createPublisher, createSession } from './publish-fixtures';

const ROOT = process.cwd();
// skills/rye-text is signed with the test key in skills/.keys, which the e2e server does not trust
const SIGNATURE_SENTENCE =
  'Not checked: this registry does not know the key that signed it, so it cannot tell who did (' +
  ['.ai/tools/text/base64_codec.ts', '.ai/tools/text/case_convert.py', '.ai/tools/text/wrap-text.yaml'].map((f) => `${f}: unknown key cac8635136c7a58a`).join('; ') +
  '). cac8635136c7a58a';
// the CLI runs on Node 24 from node_modules (isolated-vm has no build for the system Node)
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/.bin/node')) ? path.join(ROOT, 'node_modules/.bin/node') : process.execPath;

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
  // a bundled one (other specs publish skills of their own, which may sort first)
  await page.getByTestId('skill-card').filter({ hasText: 'Agent Skill' }).filter({ hasText: '@skillyard/' }).first().click();
  await expect(page).toHaveURL(/\/skills\/skillyard\/[a-z0-9-]+$/);
  await expect(page.getByRole('heading', { name: 'Tools' })).toBeVisible();
  await expect(page.getByTestId('file-list')).toContainText('SKILL.md');
  // no script or raw HTML from a skill reaches the page
  expect(await page.locator('[data-testid="instructions"] script').count()).toBe(0);
  // the readme is markdown rendered (on the server's render thread), not its source
  await expect(page.getByTestId('instructions').locator('.prose-skill > :is(h3, h4, p)').first()).toBeVisible();
  expect(await page.locator('[data-testid="instructions"] [data-markdown="plain"]').count()).toBe(0);
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
  // a bundled skill is scanned at seed time and has no findings
  await expect(page.getByTestId('scan').locator('dd')).toHaveText('Scanned: clean, no findings.');
  await expect(page.getByTestId('signature').locator('dd')).toHaveText('Unsigned.');
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

test('a tool whose readme name differs from its shown name shows both', async ({ page }) => {
  await page.goto('/skills/skillyard/text-stats');
  await expect(page.locator('[data-testid="tool"][data-tool="count-words"] [data-testid="tool-source-name"]')).toHaveText('declared as count_words');
});

test('gated tools on a skill page say what unlocks them', async ({ page }) => {
  await page.goto('/skills/skillyard/github-repos');
  await expect(page.getByTestId('tool-locked').first()).toContainText('@oauth/github');
  await expect(page.getByText(/Locked: connect GitHub\./).first()).toBeVisible();
});

test('the API reference is rendered from the OpenAPI document', async ({ page }) => {
  await page.goto('/api-reference');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('API reference');
  expect(await page.getByTestId('api-operation').count()).toBeGreaterThanOrEqual(5);
  await expect(page.getByTestId('api-operation').getByText('/api/v1/tools/{name}/invoke').first()).toBeVisible();
  // the description's `code` is drawn as code, not as backticks
  await expect(page.locator('header p').first()).not.toContainText('`');
});

test('a favicon is served', async ({ request }) => {
  const res = await request.get('/icon.svg');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('svg');
});

test("the skill page shows how to use it from an MCP client, with this site's URL; the URL and the stdio command both serve its tools", async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await page.goto('/skills/skillyard/text-stats');
  const section = page.getByTestId('mcp-connect');
  await expect(section.getByRole('heading', { name: 'Use from an MCP client' })).toBeVisible();
  const url = `${origin}/api/mcp/skillyard/text-stats`;
  await expect(page.getByTestId('mcp-url')).toHaveText(url);
  await expect(page.getByTestId('mcp-claude-code-text')).toHaveText(`claude mcp add --transport http text-stats ${url}`);
  const httpJson = (await page.getByTestId('mcp-json-text').textContent())!;
  expect(JSON.parse(httpJson)).toEqual({ mcpServers: { 'text-stats': { type: 'http', url } } });
  expect(JSON.parse((await page.getByTestId('mcp-vscode-text').textContent())!)).toEqual({ servers: { 'text-stats': { type: 'http', url } } });
  await expect(page.getByTestId('mcp-stdio-text')).toHaveText(`npx -y ${origin}/cli/skillyard.tgz mcp --registry ${origin} --skill @skillyard/text-stats`);
  const stdio = JSON.parse((await page.getByTestId('mcp-stdio-json-text').textContent())!).mcpServers['text-stats'] as { command: string; args: string[] };
  expect(stdio.command).toBe('npx');

  // one client's snippet at a time, in tabs (arrow keys move between them)
  await expect(page.getByTestId('mcp-claude-code')).toBeVisible();
  await expect(page.getByTestId('mcp-json')).toBeHidden();
  await page.getByTestId('mcp-claude-code-tab').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('mcp-json-tab')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('mcp-json')).toBeVisible();
  await expect(page.getByTestId('mcp-claude-code')).toBeHidden();
  // the copy button puts exactly the snippet on the clipboard
  await page.getByTestId('mcp-json-copy').click();
  await expect(page.getByTestId('mcp-json-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(httpJson);

  // the URL is a working Streamable HTTP MCP endpoint: the SDK's client lists and calls its tools
  const http = new Client({ name: 'e2e', version: '1.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    expect((await http.listTools()).tools.map((t) => t.name)).toContain('count-words');
    const res = await http.callTool({ name: 'count-words', arguments: { text: 'one two three' } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent ?? JSON.parse((res.content as Array<{ text: string }>)[0].text)).toMatchObject({ words: 3 });
  } finally {
    await http.close();
  }

  // the stdio configuration runs the CLI from this site's tarball (cli/cli-package.int.test.ts
  // runs it with npx); here this repository's bin stands in for it: it downloads the skill and serves it
  const local = new Client({ name: 'e2e', version: '1.0.0' });
  await local.connect(
    new StdioClientTransport({
      command: NODE,
      args: [path.join(ROOT, 'bin/skillyard.mjs'), ...stdio.args.slice(2)],
      cwd: fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-mcp-')),
      env: { ...(process.env as Record<string, string>), SKILLYARD_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-home-')), SKILLYARD_TOKEN: '' },
      stderr: 'pipe',
    }),
  );
  try {
    expect((await local.listTools()).tools.map((t) => t.name)).toContain('count-words');
  } finally {
    await local.close();
  }
});

test('a skill whose tools need an account connection shows the MCP snippets with a token to fill in', async ({ page }) => {
  await page.goto('/skills/skillyard/github-repos');
  await expect(page.getByTestId('mcp-json-text')).toContainText('"Authorization": "Bearer sy_YOUR_API_TOKEN"');
  await expect(page.getByTestId('mcp-connect')).toContainText('an API token with the invoke scope');
});

test('a signed Rye skill says in words what its signature means; its Python tools are marked as unable to run here', async ({ page }) => {
  await page.goto('/skills/skillyard/rye-text');
  await expect(page.getByTestId('signature').locator('dd')).toHaveText(SIGNATURE_SENTENCE);
  // subprocesses are off on the e2e server: both Python tools say so, the TypeScript one does not
  const reason = 'Cannot run on this server: it runs Python as a subprocess, and this server has subprocesses disabled.';
  for (const name of ['case-convert', 'wrap-text']) {
    const tool = page.locator(`[data-testid="tool"][data-tool="${name}"]`);
    await expect(tool).toContainText('python handler');
    await expect(tool.getByTestId('tool-cannot-run')).toHaveText('cannot run here');
    await expect(tool).toContainText(reason);
  }
  const ts = page.locator('[data-testid="tool"][data-tool="base64-codec"]');
  await expect(ts).toContainText('ts handler');
  await expect(ts.getByTestId('tool-cannot-run')).toHaveCount(0);
  await expect(page.getByTestId('runnable-summary')).toHaveText('1 of 3 tools can run on this server.');
});

test('home: pages of results with "x–y of N", next and previous keep the filters and sort; gated, signed and tag pills', async ({ page }) => {
  await page.goto('/?sort=recent&perPage=4');
  const count = page.getByTestId('skill-count');
  await expect(count).toHaveText(/^1–4 of \d+ skills$/);
  const total = Number((await count.textContent())!.match(/of (\d+)/)![1]);
  expect(total).toBeGreaterThan(8);
  const names = async () => page.getByTestId('skill-card').getByRole('link').allTextContents();
  const first = await names();
  expect(first).toHaveLength(4);
  await expect(page.getByTestId('prev-page')).toHaveCount(0);
  await page.getByTestId('pager').getByRole('link', { name: 'Next →' }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(page).toHaveURL(/sort=recent/);
  await expect(page).toHaveURL(/perPage=4/);
  await expect(count).toHaveText(`5–8 of ${total} skills`);
  const second = await names();
  expect(second).toHaveLength(4);
  for (const n of second) expect(first).not.toContain(n);
  await expect(page.getByTestId('pager').getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  // the last page holds the rest
  const last = Math.ceil(total / 4);
  await page
    .getByTestId('pager')
    .getByRole('link', { name: `Page ${last}` })
    .click();
  await expect(count).toHaveText(`${(last - 1) * 4 + 1}–${total} of ${total} skills`);
  await expect(page.getByTestId('next-page')).toHaveCount(0);
  await page.getByTestId('pager').getByRole('link', { name: '← Previous' }).click();
  await expect(page).toHaveURL(new RegExp(`page=${last - 1}`));

  // a filter starts again at page 1 and keeps the rest of the URL
  await page.getByTestId('filters').getByRole('link', { name: 'Signed' }).click();
  await expect(page).toHaveURL(/signed=1/);
  await expect(page).not.toHaveURL(/page=/);
  await expect(page).toHaveURL(/sort=recent/);
  const signedCards = page.getByTestId('skill-card');
  await expect(signedCards.first()).toBeVisible();
  for (const text of await signedCards.allTextContents()) expect(text).toContain('signed');
  await expect(page.getByTestId('filters').getByRole('link', { name: 'Signed' })).toHaveAttribute('aria-current', 'true');

  await page.goto('/?gated=1');
  const gatedCards = page.getByTestId('skill-card');
  await expect(gatedCards.first()).toBeVisible();
  for (const text of await gatedCards.allTextContents()) expect(text).toContain('has locked tools');

  // a tag under the list filters by it
  await page.goto('/');
  const tagLink = page
    .getByText(/^Tags:/)
    .getByRole('link')
    .first();
  const tag = (await tagLink.textContent())!;
  await tagLink.click();
  await expect(page).toHaveURL(new RegExp(`tag=${encodeURIComponent(tag)}`));
  await expect(page.getByTestId('filters').getByRole('link', { name: `Tag ${tag}: remove` })).toBeVisible();
  await expect(count).toContainText(`tagged “${tag}”`);
});

test('stars: a visitor is asked to sign in; a signed-in user stars and unstars, and the count is stored', async ({ page, context, baseURL }) => {
  await page.goto('/?q=slugify');
  const card = page.getByTestId('skill-card').filter({ hasText: '@skillyard/slugify' });
  await card.getByTestId('star-button').click();
  await expect(card.getByTestId('star-sign-in')).toContainText('Sign in to star skills.');
  await expect(card.getByTestId('star-sign-in').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin?next=%2F%3Fq%3Dslugify');
  const before = Number(await card.getByTestId('star-count').textContent());

  const { userId } = await createPublisher(`star-${Date.now().toString(36)}`);
  await context.addCookies([{ name: 'authjs.session-token', value: await createSession(userId), url: baseURL! }]);
  await page.reload();
  const button = card.getByTestId('star-button');
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByTestId('star-count')).toHaveText(String(before + 1));
  // stored: the skill page agrees after a reload
  await page.goto('/skills/skillyard/slugify');
  await expect(page.getByTestId('star-button')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('star-count')).toHaveText(String(before + 1));
  await page.getByTestId('star-button').click();
  await expect(page.getByTestId('star-button')).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(page.getByTestId('star-count')).toHaveText(String(before));
});
