import { expect, test, type Page } from '@playwright/test';

type Turn = string | { text?: string; code?: string };

// A turn that calls a bundled tool, then keeps the sandbox busy for a moment, so that a
// run lasts long enough to watch it (and reload it) while it is still going.
const slowTurn = (i: number): Turn => ({
  text: `Turn ${i}: one more slug.`,
  code: `const { slug } = await ctx.invoke('slugify', { text: 'Title number ${i}' });\nconst t = Date.now(); while (Date.now() - t < 350) {}\nmemory.n = (memory.n || 0) + 1;\nreturn slug;`,
});

const SLOW_SCRIPT: Turn[] = [
  {
    text: 'Three slugs at once.',
    code: "memory.slugs = [];\nfor (const text of ['Hello World', 'Crème brûlée', 'Ærø & Straße']) memory.slugs.push((await ctx.invoke('slugify', { text })).slug);\nreturn memory.slugs;",
  },
  ...Array.from({ length: 8 }, (_, i) => slowTurn(i + 2)),
  { text: 'Done.', code: 'ctx.finish({ slugs: memory.slugs, more: memory.n });' },
];

const QUICK_SCRIPT: Turn[] = [
  "return (await ctx.invoke('slugify', { text: 'Quick Run' })).slug;",
  { text: 'Finishing.', code: "ctx.finish({ ok: true });" },
];

async function startRun(page: Page, opts: { script?: Turn[]; provider?: 'scripted' | 'manual'; maxSteps?: number; task?: string }) {
  await page.goto('/playground');
  await expect(page.getByTestId('selected-skill')).toHaveText(/@skillyard\/slugify/);
  await page.getByLabel('Provider', { exact: true }).selectOption(opts.provider ?? 'scripted');
  if (opts.script) await page.getByLabel('Script', { exact: true }).fill(JSON.stringify(opts.script, null, 2));
  if (opts.maxSteps) await page.getByLabel('Max steps', { exact: true }).fill(String(opts.maxSteps));
  if (opts.task) await page.getByLabel('Task', { exact: true }).fill(opts.task);
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/);
  return page.url();
}

/** Every seq the page rendered, from the data-seqs attributes of the timeline. */
async function renderedSeqs(page: Page): Promise<number[]> {
  const lists = await page.locator('[data-testid="timeline"] [data-seqs]').evaluateAll((els) => els.map((e) => e.getAttribute('data-seqs') ?? ''));
  return lists.flatMap((l) => l.split(',').filter(Boolean).map(Number));
}

async function expectGapFreeTrace(page: Page) {
  const counter = page.getByTestId('event-count');
  const count = Number(await counter.getAttribute('data-count'));
  expect(count).toBeGreaterThan(5);
  expect(await counter.getAttribute('data-duplicates')).toBe('0');
  expect(await counter.getAttribute('data-gaps')).toBe('0');
  const seqs = (await renderedSeqs(page)).sort((a, b) => a - b);
  // each event rendered exactly once, numbered 1..N without a hole
  expect(seqs).toEqual(Array.from({ length: count }, (_, i) => i + 1));
}

test('a scripted run streams live, survives a reload mid-run, and ends with its result', async ({ page }) => {
  await page.goto('/playground');
  // the provider list labels the scripted replay for what it is
  await expect(page.getByLabel('Provider', { exact: true }).locator('option[value="scripted"]')).toHaveText('Scripted (replays a script — not a model)');
  // pick the skill through the search box
  await page.getByRole('button', { name: 'Remove @skillyard/slugify' }).click();
  await expect(page.getByTestId('selected-skill')).toHaveCount(0);
  await page.getByLabel('Skills', { exact: true }).fill('slugi');
  await page.getByTestId('skill-option').filter({ hasText: '@skillyard/slugify' }).click();
  await expect(page.getByTestId('selected-skill')).toHaveText(/@skillyard\/slugify/);
  await page.getByLabel('Script', { exact: true }).fill(JSON.stringify(SLOW_SCRIPT, null, 2));
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/);

  const status = page.getByTestId('run-status');
  const counter = page.getByTestId('event-count');
  // events arrive one by one while the run is still running
  const seenWhileRunning = new Set<number>();
  await expect
    .poll(
      async () => {
        const [s, c] = await Promise.all([status.getAttribute('data-status'), counter.getAttribute('data-count')]);
        if (s === 'running' && Number(c) > 0) seenWhileRunning.add(Number(c));
        return seenWhileRunning.size;
      },
      { intervals: [50], timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('invoke-code').first()).toContainText("ctx.invoke('slugify'");

  // reload mid-run: the page starts from seq 0 again and gets the whole trace
  const beforeReload = Number(await counter.getAttribute('data-count'));
  await expect(status).toHaveAttribute('data-status', 'running');
  await page.reload();
  await expect(status).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  expect(Number(await counter.getAttribute('data-count'))).toBeGreaterThan(beforeReload);
  await expectGapFreeTrace(page);

  // the whole story is there: 10 turns, 11 slugify calls with timings, the result
  await expect(page.locator('[data-type="turn"]')).toHaveCount(10);
  await expect(page.locator('[data-testid="tool-call"][data-tool="slugify"][data-status="ok"]')).toHaveCount(11);
  await expect(page.locator('[data-testid="tool-call"] [data-testid="duration"]')).toHaveCount(11);
  await expect(page.getByTestId('turn-text').first()).toHaveText('Three slugs at once.');
  await expect(page.getByTestId('run-result')).toContainText('Completed in 10 turns');
  await expect(page.getByTestId('result-json')).toContainText('creme-brulee');
  await expect(page.getByTestId('run-config')).toContainText('Scripted (replays a script — not a model)');
  // the owner's controls go away once the run is over
  await expect(page.getByTestId('cancel-run')).toHaveCount(0);
});

test('a run that breaches maxSteps shows the error in the timeline', async ({ page }) => {
  const script: Turn[] = [1, 2, 3].map((i) => `return (await ctx.invoke('slugify', { text: 'step ${i}' })).slug;`);
  await startRun(page, { script, maxSteps: 2 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('invoke-error')).toContainText('agent/max-steps');
  await expect(page.getByTestId('run-error')).toContainText('agent/max-steps');
  await expect(page.locator('[data-testid="tool-call"][data-tool="slugify"]')).toHaveCount(2);
  await expectGapFreeTrace(page);
});

test('manual mode: the owner writes a turn, runs it and sees its result', async ({ page }) => {
  await startRun(page, { provider: 'manual', task: 'Slugify "Manual Mode Works".' });
  const editor = page.getByLabel(/^Code/);
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('awaiting-input')).toContainText('turn 1');
  await editor.fill("return (await ctx.invoke('slugify', { text: 'Manual Mode Works' })).slug;");
  await page.getByTestId('run-turn').click();
  await expect(page.getByTestId('invoke-result').first()).toContainText('manual-mode-works');
  await expect(page.locator('[data-testid="tool-call"][data-tool="slugify"]')).toHaveAttribute('data-status', 'ok');

  // the next turn: finish
  await expect(page.getByTestId('awaiting-input')).toContainText('turn 2');
  await expect(page.getByTestId('input-received')).toContainText('Turn 1 written by a person');
  await page.getByLabel(/^Code/).fill('ctx.finish({ done: true });');
  await page.getByTestId('run-turn').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('result-json')).toContainText('"done": true');
  await expect(page.getByTestId('manual-turn')).toHaveCount(0);
});

test('a shared link shows the trace read-only to someone else; the owner can cancel', async ({ page, browser }) => {
  await startRun(page, { provider: 'manual' });
  await expect(page.getByTestId('manual-turn')).toBeVisible({ timeout: 20_000 });
  await page.getByLabel(/^Code/).fill("return (await ctx.invoke('slugify', { text: 'Shared Trace' })).slug;");
  await page.getByTestId('run-turn').click();
  await expect(page.getByTestId('invoke-result').first()).toContainText('shared-trace');
  await expect(page.getByTestId('awaiting-input').last()).toContainText('turn 2');
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toBe(page.url());

  const other = await browser.newContext();
  try {
    const viewer = await other.newPage();
    await viewer.goto(link);
    await expect(viewer.getByTestId('invoke-result').first()).toContainText('shared-trace');
    await expect(viewer.getByTestId('read-only')).toBeVisible();
    await expect(viewer.getByTestId('awaiting-input').last()).toContainText('turn 2');
    await expect(viewer.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
    // no controls for a viewer: no Cancel, no editor
    await expect(viewer.getByTestId('cancel-run')).toHaveCount(0);
    await expect(viewer.getByTestId('manual-turn')).toHaveCount(0);
    await expect(viewer.getByLabel(/^Code/)).toHaveCount(0);
    // nor through the API without the creator's cookie
    const denied = await viewer.request.post(`${new URL(link).pathname.replace('/playground/runs/', '/api/v1/runs/')}/cancel`);
    expect(denied.status()).toBe(403);

    // the owner cancels; the viewer sees it live
    await page.getByTestId('cancel-run').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'cancelled');
    await expect(viewer.getByTestId('run-status')).toHaveAttribute('data-status', 'cancelled');
    await expectGapFreeTrace(viewer);
  } finally {
    await other.close();
  }
});

test('fork re-runs a finished run as a new run that completes', async ({ page, browser }) => {
  const original = await startRun(page, { script: QUICK_SCRIPT });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });

  // someone else forks it from the share link: the fork is theirs
  const other = await browser.newContext();
  try {
    const viewer = await other.newPage();
    await viewer.goto(original);
    await expect(viewer.getByTestId('read-only')).toBeVisible();
    await viewer.getByTestId('fork-run').click();
    await expect(viewer).not.toHaveURL(original);
    await expect(viewer).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/);
    await expect(viewer.getByTestId('forked-from')).toContainText(original.split('/').pop()!);
    await expect(viewer.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    await expect(viewer.getByTestId('result-json')).toContainText('"ok": true');
    await expect(viewer.getByTestId('read-only')).toHaveCount(0);
    await expectGapFreeTrace(viewer);
  } finally {
    await other.close();
  }
});

test('the playground preselects a skill from ?skill= and rejects a bad script', async ({ page }) => {
  await page.goto('/playground?skill=@skillyard/text-stats');
  await expect(page.getByTestId('selected-skill')).toHaveText(/@skillyard\/text-stats/);
  await page.getByLabel('Script', { exact: true }).fill('[not json');
  await expect(page.locator('#script-problem')).toContainText('Not valid yet');
  await page.getByTestId('start-run').click();
  await expect(page.getByTestId('form-error')).toContainText('not valid JSON');
  await expect(page).toHaveURL(/\/playground\?skill=/);
});

test('an unknown run is a 404 page', async ({ page }) => {
  const response = await page.goto('/playground/runs/aaaaaaaaaaaaaaaaaaaaaaaaa');
  expect(response?.status()).toBe(404);
});
