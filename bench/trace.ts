// bench/trace: how fast the run page draws a long run. Starts the production app on a
// scratch database of its own, makes a real scripted run of about 5,000
// events (turns of ~100 tool calls each, some failing), then loads its page in Chromium
// and reloads it: time to first contentful paint, time until every event is drawn, and
// the longest main-thread task (PerformanceObserver 'longtask'). Then a second run of the
// same size whose script differs in one call, and the comparison of the two
// (/playground/compare): time until it is drawn and hydrated, and its longest task.
// Each load also names its longest animation frame's scripts and layout time
// (long-animation-frame entries), to tell what a long task was. With --cpu each reload is
// also traced (Chromium's trace, which slows the page a little) for the main thread's CPU
// time in its longest task: on a shared machine a task's wall time includes waiting for a
// core, its CPU time does not. Prints JSON.
//   npm run bench:trace [-- --events 5000 --reloads 3 --cpu]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { chromium } from '@playwright/test';
import { createScratchDatabase, databaseUrl, dropScratchDatabase, startScratchServer } from '../lib/db/scratch-database.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TARGET_EVENTS = arg('events', 5000);
const RELOADS = Math.max(1, arg('reloads', 3));
const CPU = process.argv.includes('--cpu');
const CALLS_PER_TURN = 100;
const port = process.env.BENCH_APP_PORT ?? String(Number(process.env.PORT ?? 3000) + 300);
const base = `http://127.0.0.1:${port}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(500);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `changed`: the one call (turn 2, call 5) that takes another text in the second run */
function script(turns: number, changed = false) {
  const turn = (t: number) => ({
    text: `Turn ${t}: ${CALLS_PER_TURN} slugs.`,
    code: [
      `memory.done = memory.done || 0; memory.failed = memory.failed || 0;`,
      `for (let i = 0; i < ${CALLS_PER_TURN}; i++) {`,
      // every 40th call sends a number: the tool refuses it (an error in the trace)
      `  try { await ctx.invoke('slugify', { text: i % 40 === 7 ? 42 : ${changed && t === 2 ? "i === 5 ? 'Changed title' : " : ''}'Title ${t} ' + i }); memory.done++; } catch (e) { memory.failed++; }`,
      `}`,
      `return { done: memory.done, failed: memory.failed };`,
    ].join('\n'),
  });
  return [...Array.from({ length: turns }, (_, i) => turn(i + 1)), { text: 'Done.', code: 'ctx.finish({ done: memory.done, failed: memory.failed });' }];
}

/**
 * Page script (a string: see the note at the run page's init script) that keeps the longest
 * long animation frame (Chromium's LoAF entries): how long it took, the scripts that ran in
 * it (what invoked them, from which file, for how long) and its style-and-layout time, so a
 * long task can be told apart: the framework's start, a fetch's JSON, React's work, layout.
 */
const LONGEST_FRAME_OBSERVER = `try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const w = window;
      if (w.__bench.frame && w.__bench.frame.ms >= e.duration) continue;
      const end = e.startTime + e.duration;
      w.__bench.frame = {
        at: Math.round(e.startTime),
        ms: Math.round(e.duration),
        styleAndLayoutMs: e.styleAndLayoutStart ? Math.round(end - e.styleAndLayoutStart) : 0,
        scripts: e.scripts
          .slice()
          .sort((a, b) => b.duration - a.duration)
          .slice(0, 3)
          .map((s) => ({ ms: Math.round(s.duration), invoker: String(s.invoker).slice(0, 60), source: String(s.sourceURL || '').split('/').pop() })),
      };
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
} catch {}`;

type LongestFrame = { at: number; ms: number; styleAndLayoutMs: number; scripts: Array<{ ms: number; invoker: string; source: string }> } | null;

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type TraceEvent = { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } };

/**
 * With --cpu: reloads `page` under a Chromium trace and returns the renderer main thread's
 * longest task by CPU time (ms); otherwise just reloads it.
 */
async function reload(browser: import('@playwright/test').Browser, page: import('@playwright/test').Page, settled: () => Promise<unknown>) {
  if (!CPU) {
    await page.reload();
    await settled();
    return undefined;
  }
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
  await page.reload();
  await settled();
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const onThread = (m: TraceEvent) => traceEvents.filter((e) => e.pid === m.pid && e.tid === m.tid);
  // the page's main thread: the renderer main thread that evaluated scripts
  const main = traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && onThread(e).some((x) => x.name === 'EvaluateScript'));
  if (!main) return undefined;
  const tasks = onThread(main).filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask');
  return Math.round(Math.max(0, ...tasks.map((t) => t.tdur ?? 0)) / 1000);
}

/** Starts a scripted run of `turns` turns and waits for its end. */
async function longRun(turns: number, changed: boolean) {
  const created = await fetch(`${base}/api/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      skills: ['@skillyard/slugify'],
      provider: 'scripted',
      task: `A long run: ${turns} turns of ${CALLS_PER_TURN} tool calls${changed ? ' (one call changed)' : ''}`,
      script: script(turns, changed),
      maxTurns: turns + 2,
      maxSteps: turns + 2,
    }),
  });
  if (created.status !== 201) throw new Error(`could not start the run: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  let run: { status: string; eventCount?: number } = { status: 'queued' };
  await waitFor(
    async () => {
      run = (await (await fetch(`${base}/api/v1/runs/${id}`)).json()) as typeof run;
      return ['succeeded', 'failed', 'cancelled'].includes(run.status);
    },
    'the run to finish',
    600_000,
  );
  return { id, run };
}

/** Loads the comparison of two runs `reloads` times: fully drawn (hydrated) and the longest task. */
async function measureComparison(browser: import('@playwright/test').Browser, a: string, b: string) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(`(() => {
    const w = window;
    w.__bench = { longest: 0, longTasks: 0, frame: null };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.__bench.longTasks++;
        w.__bench.longest = Math.max(w.__bench.longest, e.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
    ${LONGEST_FRAME_OBSERVER}
  })();`);
  const url = `${base}/playground/compare?a=${a}&b=${b}`;
  await page.goto(url); // warm-up
  const samples: Array<{ firstPaintMs: number; fullyDrawnMs: number; longestTaskMs: number; longTasks: number; longestFrame: LongestFrame; longestTaskCpuMs?: number }> = [];
  for (let i = 0; i < RELOADS; i++) {
    const longestTaskCpuMs = await reload(browser, page, async () => {
      await page.waitForSelector('[data-testid="compare-view"][data-ready]', { timeout: 120_000 });
      await sleep(300);
    });
    samples.push(
      await page.evaluate((cpu) => {
        const b = (window as unknown as { __bench: { longest: number; longTasks: number; frame: LongestFrame } }).__bench;
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        const ready = Number(document.querySelector('[data-testid="compare-view"]')?.getAttribute('data-ready'));
        return { firstPaintMs: Math.round(fcp), fullyDrawnMs: ready, longestTaskMs: Math.round(b.longest), longestTaskCpuMs: cpu, longTasks: b.longTasks, longestFrame: b.frame };
      }, longestTaskCpuMs),
    );
  }
  const drawn = await page.evaluate(() => ({
    marked: document.querySelectorAll('[data-testid="compare-call"][data-differs]').length,
    folds: document.querySelectorAll('[data-testid="compare-fold"]').length,
    verdict: document.querySelector('[data-testid="compare-verdict"]')?.textContent ?? '',
  }));
  await page.close();
  return {
    ...drawn,
    firstPaintMs: median(samples.map((s) => s.firstPaintMs)),
    fullyDrawnMs: median(samples.map((s) => s.fullyDrawnMs)),
    longestTaskMs: Math.max(...samples.map((s) => s.longestTaskMs)),
    ...(CPU ? { longestTaskCpuMs: Math.max(...samples.map((s) => s.longestTaskCpuMs ?? 0)) } : {}),
    longTasksPerLoad: median(samples.map((s) => s.longTasks)),
    samples,
    targets: { fullyDrawnMs: 1500, longestTaskMs: 100 },
  };
}

async function main() {
  // a Postgres of its own (not the e2e one: a second start under that name would take it over)
  const pg = await startScratchServer('bench-trace', Number(process.env.BENCH_PG_PORT ?? 54399));
  const dbName = await createScratchDatabase(pg.adminUrl, 'skillyard_bench_trace');
  const server = spawn(process.execPath, ['scripts/start.mjs', '--port', port], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl(pg.adminUrl, dbName), NODE_ENV: 'production' },
  });
  const stop = () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`)).ok, 'the app', 600_000);
    // each turn: turn-start, message, invoke call + result, 2 events per inner call, turn-end
    const turns = Math.ceil(TARGET_EVENTS / (CALLS_PER_TURN * 2 + 5));
    const { id, run } = await longRun(turns, false);

    const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
    const total = Number(((await (await fetch(`${base}/api/v1/runs/${id}`)).json()) as { eventCount?: number }).eventCount ?? 0);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The init script is a string: a function would be transpiled by tsx, whose keepNames
    // helper (__name) does not exist in the page, and the observer would never be installed.
    await page.addInitScript(`(() => {
      const expected = ${total};
      const w = window;
      w.__bench = { longest: 0, longTasks: 0, drawnAt: null, frame: null };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          w.__bench.longTasks++;
          w.__bench.longest = Math.max(w.__bench.longest, e.duration);
        }
      }).observe({ type: 'longtask', buffered: true });
      ${LONGEST_FRAME_OBSERVER}
      // "fully drawn": the event counter shows every event and the run's final status
      new MutationObserver(() => {
        const counter = document.querySelector('[data-testid="event-count"]');
        const status = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-status');
        if (counter && Number(counter.getAttribute('data-count')) >= expected && status && ['succeeded', 'failed', 'cancelled'].includes(status) && w.__bench.drawnAt === null) {
          w.__bench.drawnAt = performance.now();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-count', 'data-status'] });
    })();`);
    const url = `${base}/playground/runs/${id}`;
    const samples: Array<{ firstPaintMs: number; fullyDrawnMs: number; longestTaskMs: number; longTasks: number; longestFrame: LongestFrame; longestTaskCpuMs?: number }> = [];
    await page.goto(url); // warm-up: compile and cache the route
    for (let i = 0; i < RELOADS; i++) {
      const longestTaskCpuMs = await reload(browser, page, async () => {
        await page.waitForFunction(() => (window as unknown as { __bench: { drawnAt: number | null } }).__bench.drawnAt !== null, null, { timeout: 120_000, polling: 100 });
        await sleep(300); // let the last frame's long task be reported
      });
      samples.push(
        await page.evaluate((cpu) => {
          const b = (window as unknown as { __bench: { longest: number; longTasks: number; drawnAt: number; frame: LongestFrame } }).__bench;
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
          return {
            firstPaintMs: Math.round(fcp),
            fullyDrawnMs: Math.round(b.drawnAt),
            longestTaskMs: Math.round(b.longest),
            longestTaskCpuMs: cpu,
            longTasks: b.longTasks,
            longestFrame: b.frame,
          };
        }, longestTaskCpuMs),
      );
    }
    const drawn = await page.evaluate(() => ({
      turns: document.querySelectorAll('[data-type="turn"]').length,
      summaries: document.querySelectorAll('[data-testid="calls-summary"]').length,
    }));
    // the comparison of this run with one of the same size that differs in one call
    const other = await longRun(turns, true);
    const comparison = await measureComparison(browser, id, other.id);
    await browser.close();
    const result = {
      bench: 'trace',
      events: total,
      turns: drawn.turns,
      collapsedCallLists: drawn.summaries,
      runStatus: run.status,
      reloads: RELOADS,
      firstPaintMs: median(samples.map((s) => s.firstPaintMs)),
      fullyDrawnMs: median(samples.map((s) => s.fullyDrawnMs)),
      longestTaskMs: Math.max(...samples.map((s) => s.longestTaskMs)),
      ...(CPU ? { longestTaskCpuMs: Math.max(...samples.map((s) => s.longestTaskCpuMs ?? 0)) } : {}),
      longTasksPerLoad: median(samples.map((s) => s.longTasks)),
      samples,
      targets: { fullyDrawnMs: 1000, longestTaskMs: 100 },
      note: "timings after a reload of a finished run; longest task is 0 when no task reached 50 ms (the longtask threshold); longestFrame: the longest animation frame of a load, its scripts (invoker, file) and style and layout; longestTaskCpuMs (--cpu): the main thread's CPU time in its longest task",
      comparison: { events: [total, Number(other.run.eventCount ?? 0)], ...comparison },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    stop();
    await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)));
    await dropScratchDatabase(pg.adminUrl, dbName).catch(() => {});
    await pg.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
