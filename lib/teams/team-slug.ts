// A team's slug is its scope (`@<slug>`): the rules of skill names (SPEC section 2),
// 2..39 characters, unique against every user name and team, and not a reserved word.
import 'server-only';
import { AppError } from '../errors';
import { RESERVED_SCOPE_NAMES, reservedScopeName } from '../auth';

const SLUG = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,37}[a-z0-9]$/;
// One list for usernames and teams (lib/auth/scope-names.ts). `new` and `join` are pages
// under /teams/ (app/(teams)/teams/*): a team of that slug would have a settings page
// nobody can reach (team-slug.test.ts keeps the two in step).
export const RESERVED_SCOPES = RESERVED_SCOPE_NAMES;

export function parseTeamSlug(raw: unknown): string {
  const slug = typeof raw === 'string' ? raw.trim().replace(/^@/, '').toLowerCase() : '';
  if (!SLUG.test(slug)) {
    throw new AppError('team/invalid-slug', 'A team name is 2-39 characters: lowercase letters, digits and single hyphens, not at either end.');
  }
  const reserved = reservedScopeName(slug);
  if (reserved)
    throw new AppError('team/slug-taken', reserved === slug ? `@${slug} is reserved; choose another name.` : `@${slug} reads like the reserved @${reserved}; choose another name.`);
  return slug;
}
