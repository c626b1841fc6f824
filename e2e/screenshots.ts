// Screenshots of every page at 1280 and 390 px (SHOT_WIDTHS=1440,390 picks others), to look at (not a test). Against a running
// e2e server (`node --import tsx scripts/e2e-server.ts`, it writes .data/e2e-database-url):
//   node --import tsx e2e/screenshots.ts [outDir]        (E2E_PORT picks the server)
// Writes <outDir>/<page>-<width>.png and prints, per shot, the document width when it
// is wider than the viewport.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { createPublisher, createSession } from './publish-fixtures';
import { fillScript } from './helpers';

const base = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const out = process.argv[2] ?? '/tmp/skillyard-shots';
fs.mkdirSync(out, { recursive: true });
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
const browser = await chromium.launch({ executablePath: systemChromium, args: ['--no-sandbox', '--disable-gpu'] });

const SLOW = [
  {
    text: 'Three slugs.',
    code: "memory.s = [];\nfor (const t of ['Hello World', 'Crème brûlée', 'Ærø & Straße']) memory.s.push((await ctx.invoke('slugify', { text: t })).slug);\nreturn memory.s;",
  },
  { text: 'Wait a little.', code: 'const t = Date.now(); while (Date.now() - t < 1500) {}\nreturn 1;' },
  { text: 'And again.', code: 'const t = Date.now(); while (Date.now() - t < 1500) {}\nreturn 2;' },
  { text: 'Done.', code: 'ctx.finish({ slugs: memory.s });' },
];

async function shot(page: Page, name: string, width: number) {
  const file = path.join(out, `${name}-${width}.png`);
  const { doc, view } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  await page.screenshot({ path: file, fullPage: true });
  // the first screen at full resolution (a long full page is scaled down by viewers)
  await page.screenshot({ path: file.replace(/\.png$/, '-top.png') });
  console.log(`${doc > view ? 'OVERFLOW ' + doc + ' > ' + view : 'ok'}\t${file}`);
}

async function fillSlowScript(page: Page) {
  await page.getByLabel('Provider', { exact: true }).selectOption('scripted');
  await fillScript(page, SLOW);
}

const handle = `shots-${crypto.randomBytes(3).toString('hex')}`;
const { userId, token } = await createPublisher(handle);
const sessionToken = await createSession(userId);

// a skill with a changelog whose version is deprecated, to see the changelog and the banner
{
  const md = `---\nname: weather-notes\ndescription: Notes on reading a weather forecast.\nmetadata:\n  version: 1.2.0\n---\n\nRead the forecast twice.\n`;
  const auth = { authorization: `Bearer ${token}` };
  const changelog = '### Added\n\n- Wind chill in the notes.\n\n### Fixed\n\n- A typo in the title (`Forcast`).';
  const pub = await fetch(`${base}/api/v1/skills?filename=weather-notes.skill.md`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream', 'x-skillyard-changelog': encodeURIComponent(changelog) },
    body: md,
  });
  if (!pub.ok) throw new Error(`publish: ${pub.status} ${await pub.text()}`);
  const dep = await fetch(`${base}/api/v1/skills/${handle}/weather-notes/deprecate`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ range: '1.2.0', message: 'No longer maintained: use @skillyard/unit-convert for the conversions.' }),
  });
  if (!dep.ok) throw new Error(`deprecate: ${dep.status} ${await dep.text()}`);
}

for (const width of (process.env.SHOT_WIDTHS ?? '1280,390').split(',').map(Number)) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  const anonymous = [
    ['home', '/'],
    ['home-empty', '/?q=zzzzqqqq'],
    ['home-page-2', '/?perPage=6&page=2&sort=recent'],
    ['skill-deprecated', `/skills/${handle}/weather-notes`],
    ['skill', '/skills/skillyard/slugify'],
    ['skill-gated', '/skills/skillyard/github-repos'],
    ['skill-file', '/skills/skillyard/slugify?file=slugify.skill.md'],
    ['signin', '/signin'],
    ['api-reference', '/api-reference'],
    ['not-found', '/skills/skillyard/no-such-skill'],
    ['playground-idle', '/playground?skill=@skillyard/slugify'],
  ];
  for (const [name, url] of anonymous) {
    await page.goto(base + url);
    await shot(page, name, width);
  }
  // a tool's try form, run once
  await page.goto(`${base}/skills/skillyard/text-stats`);
  const tool = page.locator('[data-testid="tool"]').first();
  await tool.getByText(/^Try /).click();
  await tool.getByTestId('tool-form').locator('textarea, input[type="text"]').first().fill('one two three');
  await tool.getByTestId('tool-form-run').click();
  await tool.getByTestId('tool-form-ms').waitFor();
  await tool.scrollIntoViewIfNeeded();
  await shot(page, 'tool-try', width);

  // a run: running, then finished; then its share page seen by someone else
  await page.goto(`${base}/playground?skill=@skillyard/slugify`);
  await fillSlowScript(page);
  await page.getByTestId('start-run').click();
  await page.waitForURL(/\/playground\/runs\//, { timeout: 30_000 });
  await page
    .locator('[data-testid="run-status"][data-status="running"]')
    .waitFor({ timeout: 30_000 })
    .catch(() => {});
  await page.waitForTimeout(800);
  await shot(page, 'playground-running', width);
  await page.locator('[data-testid="run-status"][data-status="succeeded"], [data-testid="run-status"][data-status="failed"]').waitFor({ timeout: 60_000 });
  await shot(page, 'playground-finished', width);
  const runUrl = page.url();
  const other = await browser.newContext({ viewport: { width, height: 900 } });
  const viewer = await other.newPage();
  await viewer.goto(runUrl);
  await viewer.locator('[data-testid="run-status"][data-status="succeeded"], [data-testid="run-status"][data-status="failed"]').waitFor({ timeout: 30_000 });
  await viewer.locator('[data-testid="run-end"]').waitFor({ timeout: 30_000 }); // the stored trace has streamed in
  await shot(viewer, 'run-shared', width);
  await other.close();
  await ctx.close();

  // signed in
  const signed = await browser.newContext({ viewport: { width, height: 900 } });
  await signed.addCookies([{ name: 'authjs.session-token', value: sessionToken, url: base }]);
  const sp = await signed.newPage();
  for (const [name, url] of [
    ['signed-in-home', '/'],
    ['publish', '/publish'],
    ['settings', '/settings'],
    ['teams', '/teams'],
    ['teams-new', '/teams/new'],
    ['my-runs', '/runs'],
    ['signed-in-skill', '/skills/skillyard/text-stats'],
  ]) {
    await sp.goto(base + url);
    await shot(sp, name, width);
  }
  // the account menu opened
  await sp.goto(base + '/');
  await sp.getByTestId('account-menu').locator('summary').click();
  await shot(sp, 'account-menu-open', width);
  await signed.close();
}
await browser.close();
