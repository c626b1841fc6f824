import { expect, test } from '@playwright/test';

// Issue 32: a skill page says which agents load the skill (by their documented loader
// rules), apart from its format's conformance; a skill in another format loads in none.
test('a skill page has a "Loads in" section with a verdict per agent', async ({ page }) => {
  await page.goto('/skills/skillyard/text-stats');
  const section = page.getByTestId('agent-support');
  await expect(section.getByRole('heading', { name: 'Loads in' })).toBeVisible();
  await expect(section.locator('li')).toHaveCount(5);
  await expect(section.locator('li[data-agent="claude-code"]')).toHaveAttribute('data-loads', 'true');
  await expect(section.locator('li[data-agent="codex"]')).toHaveAttribute('data-loads', 'true');

  await page.goto('/skills/skillyard/slugify'); // a .skill.md: no agent reads it
  const other = page.getByTestId('agent-support');
  await expect(other.locator('li[data-loads="false"]')).toHaveCount(5);
  await expect(other.locator('li[data-agent="claude-code"]')).toContainText('has no SKILL.md');
});
