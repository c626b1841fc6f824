// Issue 31 in Chromium: a run's pins panel (a newer version published since, a pinned
// version yanked since), the fork's version choices (same pins, one skill moved), the
// comparison of a run with its fork at 1440 and 390 px (side by side, then stacked), the
// upgrade check on the skill page, and axe at 0 on each.
import crypto from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createPublisher, createSession } from './publish-fixtures';
import { expectNoViolations } from './helpers';

const handle = `cmp-${crypto.randomBytes(3).toString('hex')}`;
let token = '';
let userId = '';
let original = '';

// 1.1.0 changes the answer for "c" only
const source = (body: string) => `export const frontmatter = { name: 'shout', description: 'Shouts a word back.' };\nexport default async function (ctx, args) { ${body} }\n`;
const V1 = `return { upper: String(args.text).toUpperCase() };`;
const V2 = `return { upper: args.text === 'c' ? 'C!' : String(args.text).toUpperCase() };`;

async function publish(request: APIRequestContext, version: string, body: string) {
  const res = await request.post(`/api/v1/skills?filename=shout.skill.js&version=${version}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    data: Buffer.from(source(body)),
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function finished(request: APIRequestContext, id: string) {
  for (let i = 0; i < 150; i++) {
    const run = (await (await request.get(`/api/v1/runs/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { status: string };
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run.status;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`run ${id} did not end`);
}

async function expectNoOverflow(page: Page, what: string) {
  const { doc, view } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(doc, `document width on ${what}`).toBe(view);
}

test.beforeAll(async ({ request }) => {
  ({ token, userId } = await createPublisher(handle, ['publish', 'runs']));
  await publish(request, '1.0.0', V1);
  const res = await request.post('/api/v1/runs', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      skills: [`@${handle}/shout`],
      provider: 'scripted',
      task: 'Shout four words',
      visibility: 'unlisted',
      script: [
        "memory.out = []; for (const w of ['a', 'b', 'c', 'd']) memory.out.push((await ctx.invoke('shout', { text: w })).upper); return memory.out.length;",
        { text: 'Done.', code: 'ctx.finish(memory.out)' },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  original = ((await res.json()) as { id: string }).id;
  expect(await finished(request, original)).toBe('succeeded');
  await publish(request, '1.1.0', V2);
});

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'authjs.session-token', value: await createSession(userId), url: baseURL! }]);
});

test('the pins panel shows the pinned version after a newer one, and says when it was yanked since', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/playground/runs/${original}`);
  const pin = page.getByTestId('pinned-skill');
  await expect(pin).toHaveAttribute('data-version', '1.0.0');
  await expect(pin.getByRole('link', { name: `@${handle}/shout@1.0.0` })).toBeVisible();
  await expect(pin.getByTestId('pin-newer')).toHaveText('latest is 1.1.0');
  await expect(page.getByTestId('pin-yanked')).toHaveCount(0);
  await expect(page.getByTestId('pins-turns')).toBeVisible();
  await expectNoViolations(page, 'a run with its pins');

  // a share link keeps its pins, and says the version was yanked since
  const yank = await request.post(`/api/v1/skills/${handle}/shout/1.0.0/yank`, { headers: { authorization: `Bearer ${token}` }, data: { reason: 'shouts too quietly' } });
  expect(yank.status()).toBe(200);
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(`/playground/runs/${original}`);
  await expect(visitor.getByTestId('pinned-skill')).toHaveAttribute('data-version', '1.0.0');
  await expect(visitor.getByTestId('pin-yanked')).toContainText('shouts too quietly');
  await visitor.close();
  const undo = await request.post(`/api/v1/skills/${handle}/shout/1.0.0/yank`, { headers: { authorization: `Bearer ${token}` }, data: { undo: true } });
  expect(undo.status()).toBe(200);
});

test('fork choices: the same pins by default, or one skill moved to a chosen version', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/playground/runs/${original}`);
  await page.getByTestId('fork-run').click();
  await expect(page.getByTestId('fork-versions')).toBeVisible();
  await expect(page.getByTestId('fork-same')).toBeChecked();
  await expect(page.getByTestId('fork-versions')).toContainText(`@${handle}/shout@1.0.0`);
  await expectNoViolations(page, 'the fork dialog');
  await page.getByTestId('fork-confirm-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/);
  await expect(page).not.toHaveURL(new RegExp(original));
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(page.getByTestId('pinned-skill')).toHaveAttribute('data-version', '1.0.0');

  // back on the original: move the skill to 1.1.0
  await page.goto(`/playground/runs/${original}`);
  await page.getByTestId('fork-run').click();
  await page.getByTestId('fork-move').check();
  await expect(page.getByTestId('fork-move-version')).toHaveValue('1.1.0');
  await expectNoViolations(page, 'the fork dialog, moving a skill');
  await page.getByTestId('fork-confirm-run').click();
  await expect(page).not.toHaveURL(new RegExp(`${original}$`));
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(page.getByTestId('pinned-skill')).toHaveAttribute('data-version', '1.1.0');
  // Compare with parent opens the comparison of the two
  await page.getByTestId('compare-parent').click();
  await expect(page).toHaveURL(new RegExp(`/playground/compare\\?a=${original}&b=[0-9a-f]{32}$`));
  await expect(page.getByTestId('compare-verdict')).toHaveAttribute('data-differing', '1');
});

for (const width of [1440, 390]) {
  test(`the comparison at ${width} px: the one differing call marked, identical stretches folded, ${width < 768 ? 'stacked' : 'side by side'}, axe at 0`, async ({
    page,
    request,
  }) => {
    const forked = await request.post(`/api/v1/runs/${original}/fork`, {
      headers: { authorization: `Bearer ${token}` },
      data: { versions: { mode: 'latest' } },
    });
    expect(forked.status()).toBe(201);
    const fork = ((await forked.json()) as { id: string }).id;
    expect(await finished(request, fork)).toBe('succeeded');
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/playground/runs/${fork}`);
    // "Compare with…" on any run takes another run's link
    await page.getByTestId('compare-with-input').fill(`http://example.test/playground/runs/${original}`);
    await page.getByTestId('compare-with-submit').click();
    // the page reads the run id out of the pasted link
    await expect(page).toHaveURL(new RegExp(`/playground/compare\\?a=${fork}&b=`));
    await expect(page.getByTestId('compare-run-b')).toContainText(original);
    await expect(page.getByTestId('compare-view')).toHaveAttribute('data-ready', /\d+/);
    const marked = page.locator('[data-testid="compare-call"][data-differs]');
    await expect(marked).toHaveCount(1);
    await expect(marked).toHaveAttribute('data-differs', 'result');
    await expect(marked.locator('[data-side="A"]')).toContainText('C!');
    await expect(marked.locator('[data-side="B"]')).toContainText('"C"');
    await expect(page.getByTestId('compare-fold').first()).toBeVisible();
    await expect(page.getByTestId('compare-changes')).toContainText(`@${handle}/shout`);
    const a = await marked.locator('[data-side="A"]').boundingBox();
    const b = await marked.locator('[data-side="B"]').boundingBox();
    if (width < 768) expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height - 1);
    else expect(b!.x).toBeGreaterThanOrEqual(a!.x + a!.width - 1);
    await expect(page.locator('h1')).toHaveCount(1);
    await expectNoOverflow(page, `compare at ${width}`);
    await expectNoViolations(page, `compare at ${width}`);
    await page.screenshot({ path: `test-results/compare-${width}.png`, fullPage: true });
  });
}

test('upgrade check on the skill page: the owner re-runs recent runs with a new version and sees which differ', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/skills/${handle}/shout`);
  await expect(page.getByTestId('skill-usage')).toBeVisible();
  const panel = page.getByTestId('upgrade-check');
  await panel.getByTestId('upgrade-check-start').click();
  await expect(panel.getByTestId('upgrade-summary')).toContainText(/runs? differs? with 1\.1\.0/, { timeout: 45_000 });
  // every run of 1.0.0 (the original, and its same-pins fork when the fork test ran first) changes in the "c" call
  await expect(panel.locator('[data-testid="upgrade-result"][data-status="differs"]').first()).toBeVisible();
  await expect(panel.locator('[data-testid="upgrade-result"]:not([data-status="differs"])')).toHaveCount(0);
  await expect(panel.getByTestId('upgrade-compare').first()).toHaveAttribute('href', /\/playground\/compare\?a=[0-9a-f]{32}&b=[0-9a-f]{32}$/);
  await expectNoViolations(page, 'the skill page with the upgrade check');
});
