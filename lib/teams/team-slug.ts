// A team's slug is its scope (`@<slug>`): the rules of skill names (SPEC section 2),
// 2..39 characters, unique against every user name and team, and not a reserved word.
import 'server-only';
import { AppError } from '../errors';

const SLUG = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,37}[a-z0-9]$/;
// `new` and `join` are pages under /teams/ (app/(teams)/teams/*): a team of that slug
// would have a settings page nobody can reach (team-slug.test.ts keeps the two in step).
export const RESERVED_SCOPES = new Set(['skillyard', 'oauth', 'api', 'admin', 'root', 'team', 'teams', 'settings', 'new', 'join', 'me', 'mcp', 'www', 'support', 'security']);

export function parseTeamSlug(raw: unknown): string {
  const slug = typeof raw === 'string' ? raw.trim().replace(/^@/, '').toLowerCase() : '';
  if (!SLUG.test(slug)) {
    throw new AppError('team/invalid-slug', 'A team name is 2-39 characters: lowercase letters, digits and single hyphens, not at either end.');
  }
  if (RESERVED_SCOPES.has(slug)) throw new AppError('team/slug-taken', `@${slug} is reserved; choose another name.`);
  return slug;
}
