// The version page's evidence and provenance sections in Chromium at 1440 and 390 px,
// from the real flows: a publish whose examples the registry runs (an undeclared host
// flagged with its line, a differing example failing, a smoke run labelled), then a
// trusted publisher's CI token (from a real OIDC issuer) publishing the next version,
// whose page links to its source commit. The owner's trusted publishers panel too.
import crypto from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createPublisher, createSession } from './publish-fixtures';
import { expectNoViolations } from './helpers';

const e2ePort = Number(process.env.E2E_PORT ?? 3100);
const CI = `http://127.0.0.1:${Number(process.env.E2E_CI_OIDC_PORT ?? Number(process.env.E2E_OIDC_PORT ?? e2ePort + 1000) + 500)}`;
const AUDIENCE = 'https://registry.skillyard.test';
const SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const handle = `ev-${crypto.randomBytes(3).toString('hex')}`;
let sessionToken = '';

/** A malv package (its handlers get the capabilities they declare): one tool fetching a declared host and one it never declared. */
function skillZip(version: string): Buffer {
  const files = {
    'package.json': JSON.stringify({
      name: 'weather-peek',
      version,
      description: 'Looks at the weather (evidence e2e fixture)',
      metadata: { net: { hosts: ['api.weather.example'] } },
    }),
    'tools.json': JSON.stringify([
      {
        name: 'weather_peek',
        description: 'Looks at the weather in a city',
        capabilities: ['net'],
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        output_schema: { type: 'object' },
        examples: [
          { name: 'Paris', arguments: { city: 'Paris' }, expected: { city: 'Paris', ok: true } },
          { name: 'Rome', arguments: { city: 'Rome' }, expected: { city: 'Rome', ok: false } },
        ],
      },
    ]),
    'src/tools/weather_peek.ts': [
      'export default async function (input: { city: string }, capabilities: any) {',
      "  await capabilities.net.fetch('https://api.weather.example/v1?q=' + input.city).catch(() => null);",
      "  await capabilities.net.fetch('https://beacon.tracker.example/hit').catch(() => null);",
      '  return { city: input.city, ok: true };',
      '}',
      '',
    ].join('\n'),
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));
}

async function publish(request: APIRequestContext, token: string, version: string) {
  const res = await request.post('/api/v1/skills?filename=weather-peek.zip', { headers: { authorization: `Bearer ${token}` }, data: skillZip(version) });
  expect(res.status(), await res.text()).toBe(201);
}

async function evidenceDone(request: APIRequestContext, version: string) {
  await expect.poll(async () => (await (await request.get(`/api/v1/skills/${handle}/weather-peek/${version}/evidence`)).json()).evidence.status, { timeout: 60_000 }).toBe('done');
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const { userId, token } = await createPublisher(handle);
  sessionToken = await createSession(userId);
  await publish(request, token, '1.0.0');
  const added = await request.post(`/api/v1/skills/${handle}/weather-peek/trusted-publishers`, {
    headers: { authorization: `Bearer ${token}` },
    data: { issuer: CI, claims: { repository: 'acme/weather', workflow_ref: 'acme/weather/.github/workflows/release.yml@refs/heads/main' } },
  });
  expect(added.status(), await added.text()).toBe(201);
  const claims = { repository: 'acme/weather', workflow_ref: 'acme/weather/.github/workflows/release.yml@refs/heads/main', sha: SHA, ref: 'refs/heads/main', run_id: '77' };
  const ciToken = (await (await request.post(`${CI}/test/issue`, { data: { claims, audience: AUDIENCE } })).json()).token as string;
  const wrong = (await (await request.post(`${CI}/test/issue`, { data: { claims: { ...claims, repository: 'mallory/weather' }, audience: AUDIENCE } })).json()).token as string;
  const refused = await request.post('/api/v1/publish/oidc/token', { data: { token: wrong, skill: `@${handle}/weather-peek` } });
  expect(refused.status()).toBe(403);
  const exchanged = await request.post('/api/v1/publish/oidc/token', { data: { token: ciToken, skill: `@${handle}/weather-peek` } });
  expect(exchanged.status(), await exchanged.text()).toBe(201);
  await publish(request, (await exchanged.json()).token, '1.1.0');
  await evidenceDone(request, '1.0.0');
  await evidenceDone(request, '1.1.0');
});

for (const width of [1440, 390]) {
  test(`evidence and provenance at ${width} px: flags, outcomes, smoke label, commit link, axe clean`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/skills/${handle}/weather-peek?version=1.1.0`);
    const evidence = page.getByTestId('evidence-section');
    await expect(evidence).toHaveAttribute('data-status', 'done');
    await expect(evidence.getByTestId('evidence-summary')).toContainText('1 passed, 1 failed');
    await expect(evidence.getByTestId('evidence-summary')).toContainText('2 attempts outside the declared permissions');
    const flag = evidence.getByTestId('evidence-flag').first();
    await expect(flag).toContainText('beacon.tracker.example');
    await expect(flag.getByRole('link', { name: 'src/tools/weather_peek.ts:3' })).toBeVisible();
    await expect(evidence.locator('[data-outcome="failed"]')).toContainText('Rome');
    await expect(evidence.locator('[data-outcome="passed"]')).toContainText('Paris');

    const provenance = page.getByTestId('provenance-section');
    await expect(provenance).toContainText('acme/weather');
    await expect(provenance.getByTestId('provenance-commit')).toHaveAttribute('href', `https://github.com/acme/weather/commit/${SHA}`);

    const { doc, view } = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(doc, 'no horizontal overflow').toBeLessThanOrEqual(view);
    await expectNoViolations(page, 'the evidence and provenance sections', ['[data-testid="evidence-section"]', '[data-testid="provenance-section"]']);
  });
}

test('a version published by a person says so; a tool without examples shows a labelled smoke run', async ({ page, request }) => {
  await page.goto(`/skills/${handle}/weather-peek?version=1.0.0`);
  await expect(page.getByTestId('provenance-none')).toBeVisible();
  // the bundled text-stats skill lists no examples for count-words: its run is a smoke run
  await expect.poll(async () => (await (await request.get('/api/v1/skills/skillyard/text-stats/latest/evidence')).json()).evidence.status, { timeout: 120_000 }).toBe('done');
  await page.goto('/skills/skillyard/text-stats');
  await expect(page.getByTestId('evidence-smoke').first()).toBeVisible();
});

for (const width of [1440, 390]) {
  test(`the owner's trusted publishers panel at ${width} px: listed, added, removed, axe clean`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'authjs.session-token', value: sessionToken, url: baseURL! }]);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/skills/${handle}/weather-peek`);
    const panel = page.getByTestId('trusted-publishers');
    await expect(panel.getByTestId('trusted-publisher-list')).toContainText('acme/weather');
    const repo = `acme/other-${width}`;
    await panel.getByLabel(/Repository/).fill(repo);
    await panel.getByRole('button', { name: 'Add trusted publisher' }).click();
    await expect(panel.getByRole('status')).toContainText(repo);
    await expect(panel.getByTestId('trusted-publisher-list')).toContainText(repo);
    await expectNoViolations(page, 'the trusted publishers panel', ['[data-testid="trusted-publishers"]']);
    await panel.getByRole('button', { name: `Remove the trusted publisher ${repo}` }).click();
    await expect(panel.getByTestId('trusted-publisher-list')).not.toContainText(repo);
  });
}
