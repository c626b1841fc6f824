// Publishing from the web: a folder with an error shows the diagnostic at its line and
// cannot be published; fixed, it publishes; the skill is found by a misspelled word and
// by its tool's name; its page shows the install command.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoViolations } from './helpers';
import { createPublisher, createSession } from './publish-fixtures';

function writeSkill(dir: string, name: string) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Converts temperatures between Celsius, Fahrenheit and Kelvin.\nmetadata:\n  version: 1.0.0\n---\n\n# Thermometer\n\nUse convert_thermal_units to convert a temperature.\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'tools.json'),
    JSON.stringify(
      [{ name: 'convert_thermal_units', description: 'Convert a temperature', script: 'scripts/convert.js', parameters: { value: { type: 'number', description: 'degrees' } } }],
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(dir, 'scripts/convert.js'), 'export default async function (ctx, args) { return { kelvin: args.value + 273.15 }; }\n');
}

test('upload a folder with an error, fix it, publish, find it, see the install command', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const handle = `web-${crypto.randomBytes(3).toString('hex')}`;
  const { userId } = await createPublisher(handle);
  const token = await createSession(userId);
  await context.addCookies([{ name: 'authjs.session-token', value: token, url: baseURL! }]);
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-web-')), 'thermo-kit');

  await page.goto('/publish');
  await expect(page.getByRole('heading', { name: 'Publish a skill' })).toBeVisible();

  writeSkill(dir, 'Thermo_Kit');
  await page.getByTestId('folder-input').setInputFiles(dir);
  const diagnostics = page.getByTestId('diagnostics');
  await expect(diagnostics).toContainText('SKILL.md:2 error');
  await expect(diagnostics).toContainText('skill/name-invalid');
  await expect(page.getByRole('button', { name: /^Publish @/ })).toBeDisabled();
  await page.screenshot({ path: 'test-results/publish-error-1280.png', fullPage: true });

  writeSkill(dir, 'thermo-kit');
  await page.getByTestId('folder-input').setInputFiles(dir);
  await expect(page.getByTestId('preview-tools')).toContainText('convert-thermal-units');
  await expect(page.locator('[data-severity="error"]')).toHaveCount(0);
  const publish = page.getByRole('button', { name: `Publish @${handle}/thermo-kit@1.0.0` });
  await expect(publish).toBeEnabled();
  await publish.click();
  await expect(page.getByTestId('published')).toContainText(`@${handle}/thermo-kit@1.0.0`);
  await expect(page.getByTestId('published').getByTestId('install-command')).toContainText(`/cli/skillyard.tgz add @${handle}/thermo-kit --registry `);

  // misspelled word, then a tool name
  await page.goto('/?q=temperaturs');
  await expect(page.getByRole('link', { name: new RegExp(`@${handle}/thermo-kit`) })).toBeVisible();
  await page.goto('/?q=convert-thermal-units');
  await expect(page.getByRole('link', { name: new RegExp(`@${handle}/thermo-kit`) })).toBeVisible();

  await page.getByRole('link', { name: new RegExp(`@${handle}/thermo-kit`) }).click();
  await expect(page.getByTestId('install-command')).toContainText(`/cli/skillyard.tgz add @${handle}/thermo-kit --registry `);
  await expect(page.getByTestId('versions')).toContainText('1.0.0');
  await expect(page.getByTestId('versions')).toContainText('latest');
  await page.screenshot({ path: 'test-results/skill-page-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/skill-page-390.png', fullPage: true });
  await page.goto('/publish');
  await page.screenshot({ path: 'test-results/publish-390.png', fullPage: true });
});

test('the publish page asks a visitor to sign in', async ({ page }) => {
  await page.goto('/publish');
  await expect(page.getByTestId('publish-sign-in')).toContainText('Sign in');
});

test('a folder over 1 MB publishes from the web; its page shows the changelog, and a deprecation as a banner', async ({ page, context, baseURL, request }) => {
  test.setTimeout(120_000);
  const handle = `big-${crypto.randomBytes(3).toString('hex')}`;
  const { userId, token } = await createPublisher(handle);
  await context.addCookies([{ name: 'authjs.session-token', value: await createSession(userId), url: baseURL! }]);
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-big-')), 'word-atlas');
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: word-atlas\ndescription: A word list to look words up in.\nmetadata:\n  version: 1.0.0\n---\n\n# Word atlas\n\nRead data/words-*.txt.\n`,
  );
  fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), '# Changelog\n\n## 1.0.0\n\n- First release: two word lists of 600 KB each.\n\n## 0.9.0\n\n- A draft.\n');
  // two files under the 1 MB per-file limit that add up to more than Next's default 1 MB action body
  const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike\n';
  for (const n of [1, 2]) fs.writeFileSync(path.join(dir, `data/words-${n}.txt`), words.repeat(Math.ceil((600 * 1024) / words.length)));
  const total = fs.readdirSync(path.join(dir, 'data')).reduce((n, f) => n + fs.statSync(path.join(dir, 'data', f)).size, 0);
  expect(total).toBeGreaterThan(1024 * 1024);

  await page.goto('/publish');
  await page.getByTestId('folder-input').setInputFiles(dir);
  await expect(page.getByTestId('preview')).toContainText('word-atlas');
  await expect(page.getByTestId('publish-error')).toHaveCount(0);
  await page.getByRole('button', { name: `Publish @${handle}/word-atlas@1.0.0` }).click();
  await expect(page.getByTestId('published')).toContainText(`@${handle}/word-atlas@1.0.0`);

  await page.goto(`/skills/${handle}/word-atlas`);
  await expect(page.getByRole('heading', { name: 'Changelog for 1.0.0' })).toBeVisible();
  await expect(page.getByTestId('changelog')).toHaveText('First release: two word lists of 600 KB each.');
  await expect(page.getByTestId('deprecation-banner')).toHaveCount(0);

  const dep = await request.post(`/api/v1/skills/${handle}/word-atlas/deprecate`, {
    headers: { authorization: `Bearer ${token}` },
    data: { range: '1.0.0', message: 'Use @skillyard/text-stats instead.' },
  });
  expect(dep.status()).toBe(200);
  await page.reload();
  // in words on the page, not only in a tooltip
  await expect(page.getByTestId('deprecation-banner')).toBeVisible();
  await expect(page.getByTestId('deprecation-banner')).toContainText('Version 1.0.0 is deprecated.');
  await expect(page.getByTestId('deprecation-message')).toHaveText('Use @skillyard/text-stats instead.');
  await expect(page.getByTestId('version-deprecated')).toHaveText('deprecated: Use @skillyard/text-stats instead.');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    await expectNoViolations(page, `the changelog at ${width} px`);
    await page.screenshot({ path: `test-results/skill-changelog-deprecated-${width}.png`, fullPage: true });
  }
});

test('an upload over the package limit is refused in the browser, naming the limit', async ({ page, context, baseURL }) => {
  const handle = `huge-${crypto.randomBytes(3).toString('hex')}`;
  const { userId } = await createPublisher(handle);
  await context.addCookies([{ name: 'authjs.session-token', value: await createSession(userId), url: baseURL! }]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-huge-')), 'huge.tar.gz');
  fs.writeFileSync(file, '');
  fs.truncateSync(file, 51 * 1024 * 1024); // sparse: 51 MB without writing them
  await page.goto('/publish');
  await expect(page.getByText('Limits: 50 MB and 2000 files per package')).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('publish-error')).toHaveText('huge.tar.gz is 51 MB, over the 50 MB package limit (maxPackageBytes). Nothing was uploaded. [publish/too-large]');
  await expect(page.getByTestId('preview')).toHaveCount(0);
});
