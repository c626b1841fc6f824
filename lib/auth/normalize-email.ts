// The e-mail address Auth.js signs in: its default normaliser (@auth/core
// lib/actions/signin/send-token.js `defaultNormalizer`), set explicitly on our e-mail
// provider so that the address the sign-in limit counts is, by construction, the one a
// link is sent to. `Victim@X.test`, `victim@x.test,1` and a full-width `＠` all name the
// same inbox and count against one limit (normalize-email.test.ts holds it to Auth.js's).
import 'server-only';

/** The address Auth.js would send a link to; throws (as Auth.js does) when it would refuse the address. */
export function normalizeSignInEmail(email: string | null | undefined): string {
  if (!email) throw new Error('Missing email from request body.');
  // NFKC first: a homoglyph of `@` becomes a real one before the checks below
  const trimmed = email.normalize('NFKC').toLowerCase().trim();
  if (trimmed.includes('"')) throw new Error('Invalid email address format.');
  const parts = trimmed.split('@');
  const local = parts[0];
  // Auth.js drops everything after a comma in the domain (`victim@x.test,1` is victim@x.test)
  const domain = parts[1]?.split(',')[0];
  if (!local || parts.length !== 2 || !parts[1] || !domain) throw new Error('Invalid email address format.');
  return `${local}@${domain}`;
}

/** normalizeSignInEmail, or null for an address Auth.js would refuse (no link goes anywhere). */
export function signInEmailOrNull(email: unknown): string | null {
  if (typeof email !== 'string') return null;
  try {
    return normalizeSignInEmail(email);
  } catch {
    return null;
  }
}
