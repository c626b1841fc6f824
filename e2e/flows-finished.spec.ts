// Issue 25's flows that stopped halfway, finished in the UI, in Chromium at 1440 and 390 px
// with axe: /publish with a scope and visibility choice ("No problems found", the first
// click after editing the version publishes); yank with a reason, deprecate and dist-tags
// from the version list, the reason shown to everyone; the invitation page naming the team,
// role and inviter, and failing before Accept for a used, expired or bogus code; search
// suggesting as you type through transposed letters; the playground's provider select.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { createPublisher, createSession, e2eDatabaseUrl } from './publish-fixtures';
import { expectNoViolations } from './helpers';

const shot = (page: Page, name: string, width: number) => page.screenshot({ path: `test-results/flows-${name}-${width}.png`, fullPage: false });
const rand = () =>
  crypto
    .randomBytes(3)
    .toString('hex')
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]);

function writeSkill(dir: string, name: string) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Tallies things for the version-controls test.\nmetadata:\n  version: 1.0.0\n---\n\n# Tally\n\nCount what you are given.\n`,
  );
}

async function sql<T = unknown>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function invite(teamId: string, createdById: string, opts: { role?: string; expiresInMs?: number; used?: boolean } = {}): Promise<string> {
  const secret = `syi_${crypto.randomBytes(24).toString('base64url')}`;
  const hash = crypto.createHash('sha256').update(secret).digest('hex');
  await sql(
    `INSERT INTO "TeamInvite" (id, "teamId", hash, role, "createdById", "expiresAt", "acceptedAt") VALUES ($1, $2, $3, $4::"TeamRole", $5, now() + ($6 || ' milliseconds')::interval, $7)`,
    [`inv_${crypto.randomBytes(6).toString('hex')}`, teamId, hash, opts.role ?? 'member', createdById, String(opts.expiresInMs ?? 86_400_000), opts.used ? new Date() : null],
  );
  return secret;
}

for (const width of [1440, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('publish with a scope and visibility, then yank, deprecate and tag from the version list', async ({ page, context, baseURL, browser }) => {
      test.setTimeout(180_000);
      const handle = `vc-${rand()}`;
      const { userId } = await createPublisher(handle);
      await context.addCookies([{ name: 'authjs.session-token', value: await createSession(userId), url: baseURL! }]);
      const name = `tally-${rand()}`;
      const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-e2e-vc-')), name);
      writeSkill(dir, name);

      await page.goto('/publish');
      await expect(page.getByTestId('publish-scope')).toHaveValue(handle);
      await page.getByTestId('publish-visibility').selectOption('public');
      await page.getByTestId('folder-input').setInputFiles(dir);
      await expect(page.getByTestId('no-problems')).toHaveText('No problems found: no errors, no warnings, nothing in the scan.');
      await expectNoViolations(page, '/publish preview');
      await shot(page, 'publish-preview', width);
      await page.getByRole('button', { name: `Publish @${handle}/${name}@1.0.0` }).click();
      await expect(page.getByTestId('published')).toContainText(`@${handle}/${name}@1.0.0`);

      // the same folder again: 1.0.0 is taken; editing the version and clicking Publish once publishes
      await page.getByTestId('folder-input').setInputFiles(dir);
      await expect(page.getByTestId('problems')).toContainText('was published before');
      await page.getByLabel(/^Version/).fill('1.1.0');
      await page.getByRole('button', { name: `Publish @${handle}/${name}@1.1.0` }).click();
      await expect(page.getByTestId('published')).toContainText(`@${handle}/${name}@1.1.0`);

      await page.goto(`/skills/${handle}/${name}`);
      const versions = page.getByTestId('versions');
      const old = page.getByTestId('manage-1.0.0');
      await old.getByText('Manage').click();
      await old.getByLabel('Yank reason (shown to everyone)').fill('breaks on empty input');
      await old.getByRole('button', { name: 'Yank' }).click();
      await expect(versions.getByTestId('version-yanked')).toHaveText('yanked: breaks on empty input');

      const cur = page.getByTestId('manage-1.1.0');
      await cur.getByText('Manage').click();
      await cur.getByLabel('Point a dist-tag here').fill('next');
      await cur.getByRole('button', { name: 'Set tag' }).click();
      await expect(versions.getByText('next', { exact: true })).toBeVisible();
      await cur.getByLabel('Deprecation message').fill('use 2.x when it is out');
      await cur.getByRole('button', { name: 'Deprecate' }).click();
      await expect(versions.getByTestId('version-deprecated')).toHaveText('deprecated: use 2.x when it is out');
      if (!(await cur.getByRole('button', { name: 'Remove tag next' }).isVisible())) await cur.getByText('Manage').click();
      await expectNoViolations(page, 'skill page with version controls');
      await shot(page, 'version-controls', width);
      await cur.getByRole('button', { name: 'Remove tag next' }).click();
      await expect(versions.getByText('next', { exact: true })).toHaveCount(0);
      if (!(await cur.getByRole('button', { name: 'Undeprecate 1.1.0' }).isVisible())) await cur.getByText('Manage').click();
      await cur.getByRole('button', { name: 'Undeprecate 1.1.0' }).click();
      await expect(versions.getByTestId('version-deprecated')).toHaveCount(0);

      // a visitor sees the reason and no controls
      const visitor = await browser.newContext({ viewport: { width, height: 900 } });
      const v = await visitor.newPage();
      await v.goto(`/skills/${handle}/${name}?version=1.0.0`);
      await expect(v.getByTestId('yank-reason')).toHaveText(' Reason: breaks on empty input');
      await expect(v.getByTestId('version-yanked')).toHaveText('yanked: breaks on empty input');
      await expect(v.getByText('Manage')).toHaveCount(0);
      await expectNoViolations(v, 'yanked version as a visitor');
      await visitor.close();
    });

    test('an invitation names the team, role and inviter; a used, expired or bogus one fails before Accept', async ({ page, context, baseURL }) => {
      test.setTimeout(120_000);
      const ownerHandle = `own-${rand()}`;
      const owner = await createPublisher(ownerHandle);
      const joiner = await createPublisher(`join-${rand()}`);
      const slug = `crew-${rand()}`;
      const teamId = `team_${crypto.randomBytes(6).toString('hex')}`;
      await sql(`INSERT INTO "Team" (id, slug, name, "createdById") VALUES ($1, $2, 'The Crew', $3)`, [teamId, slug, owner.userId]);
      await sql(`INSERT INTO "Scope" (name, kind, "teamId") VALUES ($1, 'team', $2)`, [slug, teamId]);
      await sql(`INSERT INTO "Membership" ("teamId", "userId", role) VALUES ($1, $2, 'owner')`, [teamId, owner.userId]);
      const valid = await invite(teamId, owner.userId, { role: 'publisher' });
      const expired = await invite(teamId, owner.userId, { expiresInMs: -60_000 });
      const used = await invite(teamId, owner.userId, { used: true });
      await context.addCookies([{ name: 'authjs.session-token', value: await createSession(joiner.userId), url: baseURL! }]);

      await page.goto(`/teams/join?code=${valid}`);
      const details = page.getByTestId('invite-details');
      await expect(details).toContainText('The Crew');
      await expect(details).toContainText(`@${slug}`);
      await expect(details).toContainText('publisher');
      await expect(details).toContainText(`@${ownerHandle}`);
      await expectNoViolations(page, 'invitation');
      await shot(page, 'invite', width);
      await page.getByRole('button', { name: 'Accept invitation' }).click();
      await expect(page).toHaveURL(new RegExp(`/teams/${slug}$`));

      for (const [code, message] of [
        [valid, 'This invitation was already used; ask for a new one.'],
        [used, 'This invitation was already used; ask for a new one.'],
        [expired, 'This invitation has expired; ask for a new one.'],
        ['syi_thisisnotarealinvitation000', 'This invitation link is not valid.'],
      ]) {
        await page.goto(`/teams/join?code=${code}`);
        await expect(page.getByTestId('invite-error')).toHaveText(message);
        await expect(page.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);
      }
      await expectNoViolations(page, 'invitation that failed');

      // the owner's audit log shows the join with a readable address
      await context.clearCookies();
      await context.addCookies([{ name: 'authjs.session-token', value: await createSession(owner.userId), url: baseURL! }]);
      await page.goto(`/teams/${slug}`);
      await expect(page.getByTestId('audit-log')).toContainText('member.join');
      await expect(page.getByTestId('audit-log')).not.toContainText('0:0:0:0::/64');
    });

    test('search suggests as you type, through transposed letters', async ({ page }) => {
      await page.goto('/');
      const box = page.getByTestId('search-input');
      await box.click();
      await box.pressSequentially('wrod cuont', { delay: 30 });
      const list = page.getByTestId('search-suggestions');
      await expect(list).toBeVisible();
      await expect(list.getByRole('option', { name: /@skillyard\/text-stats/ })).toBeVisible();
      await expect(page.getByTestId('suggest-corrections')).toContainText('word');
      await expectNoViolations(page, 'search suggestions');
      await shot(page, 'suggest', width);
      // arrows pick a suggestion and Enter opens it
      const options = list.getByRole('option');
      const index = (await options.allTextContents()).findIndex((t) => t.includes('@skillyard/text-stats'));
      for (let i = 0; i <= index; i++) await box.press('ArrowDown');
      await box.press('Enter');
      await expect(page).toHaveURL(/\/skills\/skillyard\/text-stats$/);
      // Enter without a picked suggestion runs the full search, which finds it too
      await page.goto('/');
      await page.getByTestId('search-input').fill('wrod cuont');
      await expect(page.getByTestId('search-suggestions')).toBeVisible();
      // Escape closes the list and keeps what was typed
      await page.getByTestId('search-input').press('Escape');
      await expect(page.getByTestId('search-suggestions')).toBeHidden();
      await expect(page.getByTestId('search-input')).toHaveValue('wrod cuont');
      await page.getByTestId('search-input').press('Enter');
      await expect(page).toHaveURL(/\?q=wrod\+cuont/);
      await expect(page.getByRole('link', { name: /text-stats/ }).first()).toBeVisible();
    });

    test('the playground’s provider select shows its whole label', async ({ page }) => {
      await page.goto('/playground?skill=@skillyard/slugify');
      const select = page.getByTestId('provider');
      await expect(select).toBeVisible();
      const fit = await select.evaluate((el) => {
        const s = el as HTMLSelectElement;
        const style = getComputedStyle(s);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const widest = Math.max(...Array.from(s.options).map((o) => ctx.measureText(o.text).width));
        // the text, the padding, and about 20 px for the arrow
        return { needed: widest + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 20, has: s.clientWidth, right: s.getBoundingClientRect().right };
      });
      expect(fit.needed).toBeLessThanOrEqual(fit.has);
      expect(fit.right).toBeLessThanOrEqual(width);
      await expect(page.getByTestId('provider-hint')).toBeVisible();
      await expectNoViolations(page, 'playground');
    });
  });
}
