// next-auth v5 for Skillyard: database sessions through @auth/prisma-adapter, providers
// from the environment, and the login tokens sealed in the token vault. The config is
// built per request (lazy), so importing this module touches neither env nor database.
import 'server-only';
import NextAuth from 'next-auth';
import type { NextAuthConfig } from 'next-auth';
import { db, type Db } from '../db';
import { log } from '../log';
import { authProviders, deriveKey, providersFromEnv, safeRedirect, skillyardAdapter, storeConnectionTokens, type ProviderTokens } from '../auth';
import { setting } from '../config';

declare module 'next-auth' {
  interface Session {
    user: { id: string; handle: string | null; name?: string | null; email?: string | null; image?: string | null };
  }
}

const SESSION_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * What a floor above adds to sign-in. `claimConnection`: at the OAuth callback, takes the
 * provider's tokens for someone else (a team admin's connect is the team's: lib/teams) and
 * says so; then nothing is stored for the user.
 */
export type AuthHooks = { claimConnection?: (db: Db, userId: string, tokens: ProviderTokens) => Promise<boolean> };

export function authConfig(hooks: AuthHooks = {}): NextAuthConfig {
  return {
    adapter: skillyardAdapter(db()),
    session: { strategy: 'database', maxAge: SESSION_MAX_AGE, updateAge: 24 * 60 * 60 },
    providers: authProviders(providersFromEnv()),
    // a configured AUTH_SECRET wins; otherwise a key derived from the vault's master key
    secret: setting('AUTH_SECRET') ?? deriveKey('next-auth').toString('base64url'),
    trustHost: true,
    pages: { signIn: '/signin', error: '/signin/error', verifyRequest: '/signin/check-email' },
    callbacks: {
      redirect: safeRedirect,
      session({ session, user }) {
        const u = user as typeof user & { handle?: string | null };
        return { ...session, user: { id: u.id, handle: u.handle ?? null, name: u.name ?? null, email: u.email || null, image: u.image ?? null } };
      },
    },
    events: {
      async signIn({ user, account }) {
        if (!user.id || !account || (account.type !== 'oauth' && account.type !== 'oidc')) return;
        const tokens = {
          provider: account.provider,
          access_token: account.access_token,
          refresh_token: account.refresh_token,
          expires_at: account.expires_at,
          scope: account.scope,
        };
        // an admin's connect for their team (lib/teams/team-connect-intent.ts) is the team's, not theirs
        if (await hooks.claimConnection?.(db(), user.id, tokens)) return;
        await storeConnectionTokens(db(), user.id, tokens);
      },
    },
    logger: {
      // Auth.js errors can carry request details; log the kind and message only
      error(error) {
        const cause = (error as { cause?: { err?: unknown } }).cause?.err;
        const first = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 300);
        log.error('auth error', { component: 'auth', kind: error.name, message: first(error), ...(cause ? { cause: first(cause) } : {}) });
      },
      warn(code) {
        if (code !== 'debug-enabled') log.warn('auth warning', { component: 'auth', code });
      },
      debug() {},
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig());
