import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { e2eDatabaseUrl } from './publish-fixtures';

type Turn = string | { text?: string; code?: string };

// A turn that calls a bundled tool, then keeps the sandbox busy for a moment, so that a
// run lasts long enough to watch it (and reload it) while it is still going.
const slowTurn = (i: number): Turn => ({
  text: `Turn ${i}: one more slug.`,
  code: `const { slug } = await ctx.invoke('slugify', { text: 'Title number ${i}' });\nconst t = Date.now(); while (Date.now() - t < 1200) {}\nmemory.n = (memory.n || 0) + 1;\nreturn slug;`,
});

const SLOW_SCRIPT: Turn[] = [
  {
    text: 'Three slugs at once.',
    code: "memory.slugs = [];\nfor (const text of ['Hello World', 'Crème brûlée', 'Ærø & Straße']) memory.slugs.push((await ctx.invoke('slugify', { text })).slug);\nreturn memory.slugs;",
  },
  ...Array.from({ length: 8 }, (_, i) => slowTurn(i + 2)),
  { text: 'Done.', code: 'ctx.finish({ slugs: memory.slugs, more: memory.n });' },
];

const QUICK_SCRIPT: Turn[] = ["return (await ctx.invoke('slugify', { text: 'Quick Run' })).slug;", { text: 'Finishing.', code: 'ctx.finish({ ok: true });' }];

// turns rendered by the maxSteps run below: the two that ran and the one the limit stopped
const TURNS_RUN = 3;

/** Types a script into the editor, one block per turn. */
async function fillScript(page: Page, script: Turn[]) {
  const removes = page.getByRole('button', { name: /^Remove turn/ });
  while ((await page.getByTestId('script-turn').count()) > 1) await removes.last().click();
  for (const [i, turn] of script.entries()) {
    if (i > 0) await page.getByTestId('add-turn').click();
    const t = typeof turn === 'string' ? { code: turn } : turn;
    await page.getByLabel(`Turn ${i + 1} message`, { exact: true }).fill(t.text ?? '');
    await page.getByLabel(`Turn ${i + 1} code`, { exact: true }).fill(t.code ?? '');
  }
}

async function startRun(page: Page, opts: { script?: Turn[]; provider?: 'scripted' | 'manual'; maxSteps?: number; task?: string; path?: string }) {
  await page.goto(opts.path ?? '/playground');
  await expect(page.getByTestId('selected-skill').first()).toBeVisible();
  await page.getByLabel('Provider', { exact: true }).selectOption(opts.provider ?? 'scripted');
  if (opts.script) await fillScript(page, opts.script);
  if (opts.maxSteps) await page.getByLabel('Max steps', { exact: true }).fill(String(opts.maxSteps));
  if (opts.task) await page.getByLabel('Task', { exact: true }).fill(opts.task);
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/, { timeout: 30_000 });
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
  await expect(page.getByLabel('Provider', { exact: true }).locator('option[value="scripted"]')).toHaveText('Scripted');
  // pick the skill through the search box
  await page.getByRole('button', { name: 'Remove @skillyard/slugify' }).click();
  await expect(page.getByTestId('selected-skill')).toHaveCount(0);
  await page.getByLabel('Skills', { exact: true }).fill('slugi');
  await page.getByTestId('skill-option').filter({ hasText: '@skillyard/slugify' }).click();
  await expect(page.getByTestId('selected-skill')).toHaveText(/@skillyard\/slugify/);
  await fillScript(page, SLOW_SCRIPT);
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/, { timeout: 30_000 });

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
  await expect(page.getByTestId('run-result')).toContainText('Finished with ctx.finish after 10 turns');
  await expect(page.getByTestId('run-outcome')).toHaveAttribute('data-status', 'succeeded');
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
  // an exhausted run says so once: no "in progress" turn, one end label, no turn nobody wrote
  await expect(page.getByText('in progress…')).toHaveCount(0);
  await expect(page.getByTestId('run-end')).toHaveCount(1);
  await expect(page.getByTestId('run-end').locator('div').first()).toHaveText('Run failed');
  await expect(page.getByTestId('agent-cancelled')).toHaveCount(0);
  await expect(page.getByTestId('run-error')).toHaveCount(1);
  await expect(page.getByTestId('input-received')).toHaveCount(0);
  await expect(page.getByText(/written by/)).toHaveCount(0);
  await expect(page.locator('[data-type="turn"]')).toHaveCount(TURNS_RUN);
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
  await expect(page.getByTestId('input-received')).toContainText('Turn 1 written by you');
  await page.getByLabel(/^Code/).fill('ctx.finish({ done: true });');
  await page.getByTestId('run-turn').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('result-json')).toContainText('"done": true');
  await expect(page.getByTestId('manual-turn')).toHaveCount(0);

  // a fork replays the code of each turn (scripted), and finishes the same way on its own
  const original = new URL(page.url()).pathname.split('/').pop()!;
  const forked = await page.request.post(`/api/v1/runs/${original}/fork`, { data: {} });
  expect(forked.status()).toBe(201);
  const fork = (await forked.json()) as { url: string };
  await page.goto(fork.url);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(page.getByTestId('invoke-result').first()).toContainText('manual-mode-works');
  await expect(page.getByTestId('result-json')).toContainText('"done": true');
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
    // the viewer's stream replays the stored trace (slow on a busy machine: a longer wait)
    await expect(viewer.getByTestId('invoke-result').first()).toContainText('shared-trace', { timeout: 30_000 });
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
    // a cancelled run says so once: no "in progress" turn, no failure, no turn nobody wrote
    for (const p of [page, viewer]) {
      await expect(p.getByText('in progress…')).toHaveCount(0);
      await expect(p.getByTestId('turn-interrupted')).toHaveText('cancelled before it ended');
      await expect(p.getByTestId('run-error')).toHaveCount(0);
      await expect(p.getByTestId('agent-cancelled')).toBeVisible();
      await expect(p.getByTestId('input-abandoned')).toContainText('No code was written for turn 2');
      await expect(p.getByTestId('input-received')).toHaveCount(1);
      await expect(p.getByTestId('run-end')).toHaveText(/Run cancelled/);
    }
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
    // the fork shows the sharer's code and runs nothing until the viewer says so
    await viewer.getByTestId('fork-run').click();
    await expect(viewer.getByTestId('fork-confirm')).toContainText('with your connected accounts and tokens');
    await expect(viewer.getByTestId('fork-code').first()).toHaveText("return (await ctx.invoke('slugify', { text: 'Quick Run' })).slug;");
    await expect(viewer.getByTestId('fork-code')).toHaveCount(2);
    await viewer.getByTestId('fork-confirm-cancel').click();
    await expect(viewer.getByTestId('fork-confirm')).toHaveCount(0);
    await expect(viewer).toHaveURL(original);
    await viewer.getByTestId('fork-run').click();
    await viewer.getByTestId('fork-confirm-run').click();
    await expect(viewer).not.toHaveURL(original);
    await expect(viewer).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/);
    await expect(viewer.getByTestId('forked-from')).toContainText(original.split('/').pop()!);
    await expect(viewer.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    await expect(viewer.getByTestId('result-json')).toContainText('"ok": true');
    await expect(viewer.getByTestId('read-only')).toHaveCount(0);
    await expectGapFreeTrace(viewer);
  } finally {
    await other.close();
  }
});

test('an unknown run is a 404 page', async ({ page }) => {
  const response = await page.goto('/playground/runs/aaaaaaaaaaaaaaaaaaaaaaaaa');
  expect(response?.status()).toBe(404);
});

test('"Try in playground" starts from that skill: its tools, an example call, a suggested task', async ({ page }) => {
  await page.goto('/skills/skillyard/text-stats');
  await page.getByTestId('try-in-playground').click();
  await expect(page).toHaveURL(/\/playground\?skill=/);
  await expect(page.getByTestId('selected-skill')).toHaveText(/@skillyard\/text-stats/);
  await expect(page.getByTestId('selected-skill')).toHaveCount(1);
  await expect(page.locator('[data-testid="tool-chip"][data-tool="count-words"]')).toBeVisible();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(/text-stats/);
  await expect(page.getByLabel('Turn 1 code', { exact: true })).toHaveValue(/ctx\.invoke\('[a-z-]+', \{/);
  // nothing of the demo skill is left over
  await expect(page.getByTestId('script-editor')).not.toContainText('slugify');
  expect(await page.getByLabel('Turn 1 code', { exact: true }).inputValue()).not.toContain('slugify');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/, { timeout: 30_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('invoke-error')).toHaveCount(0);
});

test('a run whose every turn failed is failed, and the page says why', async ({ page }) => {
  const script: Turn[] = ["return (await ctx.invoke('slugify', { text: 'x' })).slug;", "return (await ctx.invoke('slugify', { text: 'y' })).slug;", { text: 'I could not do it.' }];
  await startRun(page, { path: '/playground?skill=@skillyard/text-stats', script });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('invoke-error')).toHaveCount(2);
  await expect(page.getByTestId('run-outcome')).toContainText('every turn that ran code failed');
  await page.getByTestId('run-outcome').getByText('How the outcome is decided').click();
  await expect(page.locator('[data-testid="outcome-rules"] [aria-current="true"]')).toHaveAttribute('data-rule', 'every-turn-failed');
  await expect(page.getByText('in progress…')).toHaveCount(0);
  // next/previous error move the focus through the failures
  await page.getByTestId('next-error').click();
  await expect(page.getByTestId('error-position')).toHaveText(/error 1 of [2-9]/);
  await page.getByTestId('next-error').click();
  await expect(page.getByTestId('error-position')).toHaveText(/error 2 of/);
  await page.getByTestId('prev-error').click();
  await expect(page.getByTestId('error-position')).toHaveText(/error 1 of/);
  await expect(page.locator(':focus')).toHaveAttribute('data-trace-error', '');
});

test('a run that ends without ctx.finish after its last code failed is failed', async ({ page }) => {
  const script: Turn[] = [QUICK_SCRIPT[0], 'const a = 1;\nconst b = ;\nreturn a;', { text: 'Here is my answer anyway.' }];
  await startRun(page, { script });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('run-end-reason')).toContainText('turn 2 failed');
  // the error points at the line as written (line 2), not at the sandbox's wrapper module
  await expect(page.getByTestId('invoke-error')).toContainText('line 2, column');
  await expect(page.getByTestId('invoke-error')).not.toContainText('module.js');
  await expect(page.getByTestId('code-error-line')).toHaveAttribute('data-line', '2');
});

test('?skill= naming an unknown skill says so instead of falling back to the demo', async ({ page }) => {
  await page.goto('/playground?skill=@nobody/no-such-skill');
  await expect(page.getByTestId('playground-notice')).toContainText('There is no skill @nobody/no-such-skill');
  await expect(page.getByTestId('selected-skill')).toHaveCount(0);
  await expect(page.getByTestId('start-run')).toBeDisabled();
});

test('gated tools say what unlocks them; tools that cannot run here are marked', async ({ page }) => {
  await page.goto('/playground?skill=@skillyard/github-repos');
  const gated = page.locator('[data-testid="tool-chip"][data-gated="true"]').first();
  await expect(gated).toBeVisible();
  await expect(page.getByTestId('unlock-hint').first()).toContainText('is locked: connect GitHub.');
  // subprocess tools, while subprocesses are off (as in these tests)
  await page.goto('/playground?skill=@skillyard/rye-text');
  await expect(page.locator('[data-testid="tool-chip"][data-runnable="false"]').first()).toBeVisible();
  await expect(page.getByTestId('cannot-run').first()).toContainText('subprocesses disabled');
});

test('try one tool without an agent: a form from its JSON Schema, the result and the time', async ({ page }) => {
  await page.goto('/playground?skill=@skillyard/slugify');
  await page.getByTestId('try-tool-panel').getByText('Try one tool without an agent').click();
  const form = page.getByTestId('tool-form');
  await expect(form.getByTestId('required-mark').first()).toBeVisible();
  await form.getByLabel(/^text/).fill('Hello Form World');
  await form.getByTestId('tool-form-run').click();
  await expect(form.getByTestId('tool-form-result')).toContainText('hello-form-world');
  await expect(form.getByTestId('tool-form-ms')).toHaveText(/\d+ ms/);
  // a missing required field is caught in the form; a server error is shown as such
  await form.getByLabel(/^text/).fill('');
  await form.getByTestId('tool-form-run').click();
  await expect(form).toContainText('text: required');
});

test('edit and re-run: a fork with a changed task and script; the form survives Back', async ({ page }) => {
  const original = await startRun(page, { script: QUICK_SCRIPT, task: 'The first version of the task' });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await page.getByTestId('edit-rerun').click();
  await expect(page.getByTestId('editing-run')).toContainText(original.split('/').pop()!);
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue('The first version of the task');
  await expect(page.getByLabel('Turn 2 code', { exact: true })).toHaveValue('ctx.finish({ ok: true });');
  await page.getByLabel('Task', { exact: true }).fill('The second version of the task');
  await page.getByLabel('Turn 2 code', { exact: true }).fill('ctx.finish({ edited: true });');
  await page.getByLabel('Max steps', { exact: true }).fill('5');
  // leave and come back: the edits are still there
  await page.goto('/');
  await page.goBack();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue('The second version of the task');
  await expect(page.getByLabel('Turn 2 code', { exact: true })).toHaveValue('ctx.finish({ edited: true });');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/, { timeout: 30_000 });
  expect(page.url()).not.toBe(original);
  await expect(page.getByTestId('forked-from')).toContainText(original.split('/').pop()!);
  await expect(page.getByTestId('run-task')).toHaveText('The second version of the task');
  await expect(page.getByTestId('run-config')).toContainText('5 steps');
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('result-json')).toContainText('"edited": true');
});

test('manual mode lists the tools it can call with their parameters', async ({ page }) => {
  await startRun(page, { provider: 'manual' });
  const tools = page.getByTestId('manual-tools');
  await expect(tools).toContainText('slugify', { timeout: 20_000 });
  await expect(tools).toContainText('text');
  await tools.getByRole('button', { name: 'Insert a call' }).first().click();
  await expect(page.getByLabel(/^Code/)).toHaveValue(/ctx\.invoke\('slugify'/);
  // leave no run waiting for input (anonymous runs share a cap on active runs)
  await page.getByTestId('cancel-run').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'cancelled');
});

test('a long trace: a turn with many calls collapses to a summary with the errors first; errors and tools are navigable', async ({ page }) => {
  const many = (t: number): Turn => ({
    text: `Turn ${t}: sixty calls.`,
    code: `for (let i = 0; i < 60; i++) { try { await ctx.invoke('slugify', { text: i === 13 ? 42 : 'Item ${t} ' + i }); } catch (e) {} }\nreturn 'ok';`,
  });
  await startRun(page, { script: [many(1), many(2), { text: 'Done.', code: 'ctx.finish({ ok: true });' }] });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  const summaries = page.getByTestId('calls-summary');
  await expect(summaries).toHaveCount(2);
  await expect(summaries.first()).toContainText('60 calls, 1 error');
  // collapsed: only the failed call is drawn, first
  const firstTurn = page.locator('[data-type="turn"]').first();
  await expect(firstTurn.getByTestId('tool-call')).toHaveCount(1);
  await expect(firstTurn.getByTestId('tool-call').first()).toHaveAttribute('data-status', 'error');
  await expect(firstTurn.getByTestId('turn-counts')).toContainText('61 calls, 1 error');
  await firstTurn.getByTestId('toggle-calls').click();
  await expect(firstTurn.getByTestId('tool-call')).toHaveCount(60);
  // the header counts and error navigation
  await expect(page.getByTestId('event-count')).toContainText('2 errors');
  await page.getByTestId('next-error').click();
  await expect(page.getByTestId('error-position')).toHaveText('error 1 of 2');
  await page.getByTestId('next-error').click();
  await expect(page.getByTestId('error-position')).toHaveText('error 2 of 2');
  await expect(page.locator(':focus')).toHaveAttribute('data-status', 'error');
  // filter by tool: the slugify calls only
  await page.getByTestId('tool-filter').selectOption('slugify');
  await expect(page.locator('[data-type="turn"]')).toHaveCount(2);
  // the header stays in view while scrolling
  await page.mouse.wheel(0, 3000);
  await expect(page.getByTestId('run-header')).toBeInViewport();
  await expect(page.getByTestId('waterfall')).toContainText('3 turns');
});

test('token usage the provider reported is shown per turn and in total', async ({ page }) => {
  // The e2e server has no model provider (only the LLM is stood in, and only in unit tests:
  // lib/agent/run-agent.http.test.ts checks that an OpenAI-wire server's usage lands on the
  // turn-end event). Here a finished run's stored turn-end events get the usage such a
  // provider reports, and the page must show it.
  const url = await startRun(page, { script: QUICK_SCRIPT });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('run-usage')).toHaveCount(0); // the scripted provider reports none
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const id = url.split('/').pop()!;
    const res = await client.query(
      `UPDATE "RunEvent" SET data = data || jsonb_build_object('usage', jsonb_build_object('inputTokens', 1200 * seq, 'outputTokens', 34))
       WHERE "runId" = $1 AND type = 'turn-end' RETURNING seq`,
      [id],
    );
    expect(res.rowCount).toBe(2);
  } finally {
    await client.end();
  }
  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const perTurn = page.getByTestId('turn-usage');
  await expect(perTurn).toHaveCount(2);
  await expect(perTurn.first()).toContainText(/[\d,]+ in \/ 34 out tokens/);
  await expect(page.getByTestId('run-usage')).toContainText(/[\d,]+ in \/ 68 out tokens/);
});

test('a markdown object in the trace is drawn (its renderer loads only when a run has one)', async ({ page }) => {
  // No bundled skill emits objects: a finished run's message event becomes the markdown
  // object a skill with the object capability would have sent in that turn.
  const url = await startRun(page, { script: QUICK_SCRIPT });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const res = await client.query(
      `UPDATE "RunEvent" SET type = 'object', data = data || jsonb_build_object('component', jsonb_build_object('type', 'markdown', 'props', jsonb_build_object('markdown', E'## Findings\\n\\nA **bold** claim.')))
       WHERE "runId" = $1 AND type = 'message' AND data->>'text' = 'Finishing.' RETURNING seq`,
      [url.split('/').pop()],
    );
    expect(res.rowCount).toBe(1);
  } finally {
    await client.end();
  }
  await page.reload();
  const object = page.locator('[data-testid="object-component"][data-object-type="markdown"]');
  await expect(object.locator('strong')).toHaveText('bold', { timeout: 20_000 });
  await expect(object.getByRole('heading', { name: 'Findings' })).toBeVisible();
});

test('390 px: a 300-character unbroken task and a long URL in the script do not widen the page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const task = 'x'.repeat(300);
  const url = `https://example.com/${'a-very-long-path-segment-without-breaks-'.repeat(6)}?q=${'y'.repeat(80)}`;
  const script: Turn[] = [
    { text: `Reading ${url}`, code: `const source = '${url}';\nreturn (await ctx.invoke('slugify', { text: source.slice(0, 40) })).slug;` },
    { text: 'Done.', code: 'ctx.finish({ ok: true });' },
  ];
  const width = async () => page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  await page.goto('/playground');
  await expect(page.getByTestId('selected-skill').first()).toBeVisible();
  await page.getByLabel('Provider', { exact: true }).selectOption('scripted');
  await fillScript(page, script);
  await page.getByLabel('Task', { exact: true }).fill(task);
  expect(await width()).toEqual({ doc: 390, view: 390 });
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/playground\/runs\/[0-9a-f]{32}$/, { timeout: 30_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  // the task (shortened in the heading, whole in the run's settings) and the URL are on the page, wrapped
  await expect(page.getByTestId('run-task')).toHaveText(`${'x'.repeat(160)}…`);
  await page
    .locator('summary')
    .filter({ hasText: /^▸task/ })
    .click();
  await expect(page.locator('pre').filter({ hasText: task })).toBeVisible();
  await page.getByTestId('run-script').locator('summary').click();
  await expect(page.getByTestId('run-script').locator('pre')).toContainText(url);
  await expect(page.getByTestId('turn-text').first()).toHaveText(`Reading ${url}`);
  await expect(page.getByTestId('invoke-code').first()).toContainText(url);
  expect(await width()).toEqual({ doc: 390, view: 390 });
  await page.screenshot({ path: 'test-results/run-long-task-390.png', fullPage: true });
});

test('share links are 128 random bits: an anonymous client learns nothing from its own run ids', async ({ request }) => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await request.post('/api/v1/runs', { data: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: ['return 1'], task: `share link ${i}` } });
    expect(res.status()).toBe(201);
    const body = (await res.json()) as { id: string; url: string; events: string };
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.url).toBe(`/playground/runs/${body.id}`);
    expect(body.events).toBe(`/api/v1/runs/${body.id}/events`);
    ids.push(body.id);
  }
  // made a moment apart, they share no prefix a cuid's clock and counter would give
  for (let i = 1; i < ids.length; i++) expect(ids[i]!.slice(0, 6)).not.toBe(ids[i - 1]!.slice(0, 6));
  // the neighbour of a real id is no run
  const id = ids[0]!;
  const neighbour = id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');
  expect((await request.get(`/api/v1/runs/${neighbour}`)).status()).toBe(404);
  expect((await request.get(`/api/v1/runs/${id}`)).status()).toBe(200);
});
