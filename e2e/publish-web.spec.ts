// Publishing from the web: a folder with an error shows the diagnostic at its line and
// cannot be published; fixed, it publishes; the skill is found by a misspelled word and
// by its tool's name; its page shows the install command.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
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
    JSON.stringify([{ name: 'convert_thermal_units', description: 'Convert a temperature', script: 'scripts/convert.js', parameters: { value: { type: 'number', description: 'degrees' } } }], null, 2),
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
  await expect(page.getByTestId('published').getByTestId('install-command')).toContainText(`skillyard add @${handle}/thermo-kit`);

  // misspelled word, then a tool name
  await page.goto('/?q=temperaturs');
  await expect(page.getByRole('link', { name: new RegExp(`@${handle}/thermo-kit`) })).toBeVisible();
  await page.goto('/?q=convert-thermal-units');
  await expect(page.getByRole('link', { name: new RegExp(`@${handle}/thermo-kit`) })).toBeVisible();

  await page.getByRole('link', { name: new RegExp(`@${handle}/thermo-kit`) }).click();
  await expect(page.getByTestId('install-command')).toContainText(`skillyard add @${handle}/thermo-kit`);
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
