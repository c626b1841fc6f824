// A visitor's first try, on every public skill of a fresh server (listed through the API,
// not picked by hand): "Try in playground", then "Start run" without changing anything.
// No run may be shown as a plain success over a failed call; a skill whose example tool
// needs nothing succeeds with a result; a gated one says what unlocks it; one that needs
// the network (unreachable here) fails and says why.
import { expect, test, type Page } from '@playwright/test';

type ApiTool = { name: string; inputTokens?: Record<string, unknown> | null; capabilities?: string[] | null; handler?: { kind?: string } };
type Hit = { scope: string; name: string };

async function publicSkills(page: Page): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (let p = 1; p < 50; p++) {
    const res = await page.request.get(`/api/v1/skills?perPage=50&page=${p}`);
    expect(res.ok()).toBe(true);
    const body = (await res.json()) as { hits: Hit[]; total?: number };
    hits.push(...body.hits);
    if (body.hits.length === 0 || (body.total !== undefined && hits.length >= body.total)) break;
    if (body.hits.length < 50) break;
  }
  return [...new Map(hits.map((h) => [`${h.scope}/${h.name}`, h])).values()];
}

async function toolsOf(page: Page, s: Hit): Promise<ApiTool[]> {
  const res = await page.request.get(`/api/v1/skills/${s.scope}/${s.name}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { manifest: { tools: ApiTool[] } }).manifest.tools;
}

test('every public skill: "Try in playground", "Start run" unchanged, and the outcome tells the truth', async ({ page }) => {
  test.setTimeout(15 * 60_000);
  const skills = await publicSkills(page);
  // the bundled seed: 15 skills at least
  expect(skills.length).toBeGreaterThanOrEqual(15);
  const seen: string[] = [];
  for (const s of skills) {
    const ref = `@${s.scope}/${s.name}`;
    await test.step(ref, async () => {
      const tools = await toolsOf(page, s);
      await page.goto(`/skills/${s.scope}/${s.name}`);
      await page.getByTestId('try-in-playground').click();
      await expect(page).toHaveURL(/\/playground\?skill=/);
      await expect(page.getByTestId('selected-skill')).toHaveText(new RegExp(ref.replace('/', '\\/')));
      const code = await page.getByLabel('Turn 1 code', { exact: true }).inputValue();
      const picked = /ctx\.invoke\('([a-z0-9-]+)'/.exec(code)?.[1] ?? null;
      // the default script never finishes with nothing
      expect(code, ref).not.toContain('finish(null)');
      await page.getByTestId('start-run').click();
      await expect(page).toHaveURL(/\/playground\/runs\/[a-z0-9]{20,40}$/, { timeout: 30_000 });
      const status = page.getByTestId('run-status');
      await expect(status).toHaveAttribute('data-status', /^(succeeded|failed|cancelled)$/, { timeout: 60_000 });
      const shown = (await status.textContent())?.trim() ?? '';
      const failedNodes = await page.locator('[data-testid="timeline"] [data-status="error"]').count();
      // never a plain green over a red call
      if (failedNodes > 0) expect(shown, `${ref}: a run with a failed call is shown as "${shown}"`).not.toBe('succeeded');

      const tool = tools.find((t) => t.name === picked);
      const gated = !!tool && Object.keys(tool.inputTokens ?? {}).length > 0;
      const network = !!tool && (tool.capabilities ?? []).some((c) => c === 'net' || c.startsWith('net.'));
      const runId = new URL(page.url()).pathname.split('/').pop()!;
      const run = (await (await page.request.get(`/api/v1/runs/${runId}`)).json()) as { status: string; result: unknown; error: { code: string; message: string } | null };
      expect(run.status, ref).toBe(await status.getAttribute('data-status'));
      if (gated) {
        // locked for a visitor: the run fails and says what unlocks the tool
        expect(run.status, ref).toBe('failed');
        await expect(page.getByTestId('run-outcome'), ref).toContainText(/to unlock it|unlocks it/);
        seen.push(`${ref}: gated`);
      } else if (network) {
        // these machines reach no outside host: the truth is a failure that names it
        if (run.status !== 'succeeded') {
          expect(run.status, ref).toBe('failed');
          await expect(page.getByTestId('run-outcome'), ref).toContainText(/net|network|resolve|reach/i);
        } else expect(run.result, ref).not.toBeNull();
        seen.push(`${ref}: network`);
      } else {
        // needs nothing: succeeds, with the tool's result
        expect(run, ref).toMatchObject({ status: 'succeeded', error: null });
        expect(run.result, ref).not.toBeNull();
        expect(shown, ref).toBe('succeeded');
        seen.push(`${ref}: ok`);
      }
    });
  }
  console.log(seen.join('\n'));
});
