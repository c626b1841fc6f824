// Path and query parameters of the /api/v1/skills routes, parsed once.
import 'server-only';
import { z } from 'zod';
import { SEARCH_SORTS, type SearchQuery } from './search-skills';

const Segment = z
  .string()
  .transform((s) => decodeURIComponent(s).replace(/^@/, ''))
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a scope or skill name is lowercase letters, digits and "-"'));

export const SkillParams = z.object({ scope: Segment, name: Segment });
export const VersionParams = SkillParams.extend({
  version: z
    .string()
    .transform((s) => decodeURIComponent(s))
    .pipe(z.string().min(1).max(64)),
});

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const SearchParams = z.object({
  q: z.string().max(200).optional(),
  format: z.enum(['agent-skill', 'skill-md', 'code-skill', 'malv', 'rye']).optional(),
  tag: z.string().max(64).optional(),
  gated: bool.optional(),
  signed: bool.optional(),
  scope: z.string().max(65).optional(),
  loadsIn: z.enum(['claude-code', 'codex', 'openclaw', 'cursor', 'copilot']).optional(),
  sort: z.enum(SEARCH_SORTS).optional(),
  page: z.coerce.number().int().min(1).max(500).optional(),
  perPage: z.coerce.number().int().min(1).max(100).optional(),
});

export function parseSearchParams(url: URL): SearchQuery {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (v !== '') raw[k] = v;
  return SearchParams.parse(raw);
}
