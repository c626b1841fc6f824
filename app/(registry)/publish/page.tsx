import type { Metadata } from 'next';
import Link from 'next/link';
import { headers } from 'next/headers';
import { currentUser } from '@/lib/session';
import { serverContext } from '@/lib/server';
import { publishScopesOf, uploadLimits } from '@/lib/registry';
import { cliPackageArgs, siteOrigin } from '@/lib/mcp';
import { formatBytes } from './format-bytes';
import { PublishForm } from './publish-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Publish a skill' };

export default async function PublishPage() {
  const user = await currentUser();
  const limits = uploadLimits();
  const origin = siteOrigin(await headers());
  const scopes = user?.handle ? await publishScopesOf(serverContext().db, user.id, user.handle) : [];
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Publish a skill</h1>
        <p className="text-zinc-600 dark:text-zinc-400">
          Drop a skill folder, a <code>.zip</code> or <code>.tar.gz</code>, or a single <code>.skill.md</code>/<code>.skill.js</code>/<code>.skill.ts</code> file. You see every
          diagnostic and the manifest before anything is stored. Versions are immutable: a number is never reused.
        </p>
        <p className="text-xs text-zinc-500">
          Limits: {formatBytes(limits.maxPackageBytes)} and {limits.maxPackageFiles} files per package, {formatBytes(limits.maxFileBytes)} per file the reader parses (manifests,
          frontmatter, handler source; fonts and images only count towards the package); no links, no paths outside the package. From a terminal: <code>skillyard publish</code>.
        </p>
      </header>
      {user?.handle ? (
        <PublishForm scopes={scopes} limits={{ maxPackageBytes: limits.maxPackageBytes, maxPackageFiles: limits.maxPackageFiles }} cli={{ origin, args: cliPackageArgs(origin) }} />
      ) : user ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40">
          Choose a username first: it is your scope (<code>@username</code>).{' '}
          <Link href="/welcome" className="underline">
            Choose one
          </Link>
          .
        </p>
      ) : (
        <p className="rounded-lg border border-zinc-300 p-4 text-sm dark:border-zinc-700" data-testid="publish-sign-in">
          <Link href="/signin?next=/publish" className="font-medium text-emerald-700 underline dark:text-emerald-400">
            Sign in
          </Link>{' '}
          to publish skills under your own scope.
        </p>
      )}
    </div>
  );
}
