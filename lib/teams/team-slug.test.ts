import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTeamSlug, RESERVED_SCOPES } from './team-slug';

describe('parseTeamSlug', () => {
  it('refuses every slug that a static page under /teams/ already answers', () => {
    const dir = path.join(process.cwd(), 'app/(teams)/teams');
    const pages = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('[') && !d.name.startsWith('_'));
    expect(pages.map((d) => d.name)).toContain('join');
    for (const page of pages) {
      expect(RESERVED_SCOPES.has(page.name)).toBe(true);
      expect(() => parseTeamSlug(page.name)).toThrow(expect.objectContaining({ code: 'team/slug-taken' }));
    }
  });

  it('accepts an ordinary slug', () => {
    expect(parseTeamSlug('@Joiners')).toBe('joiners');
  });
});
