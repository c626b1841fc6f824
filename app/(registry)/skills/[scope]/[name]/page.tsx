import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { serverContext } from '@/lib/server';
import { isAppError } from '@/lib/errors';
import { getSkill, type SkillDetail } from '@/lib/registry/get-skill';
import { FormatBadge } from '../../../../_components/format-badge';
import { Markdown } from '../../../../_components/markdown';
import { ToolList } from '../../../../_components/tool-list';
import { InstallCommand } from '../../../../_components/install-command';
import { VersionHistory } from '../../../../_components/version-history';
import { UnlockPlanner } from '../../../../(account)/_components/unlock-planner';

export const dynamic = 'force-dynamic';

type Params = { scope: string; name: string };

async function load(params: Params, version?: string): Promise<SkillDetail> {
  try {
    return await getSkill(serverContext().db, { scope: decodeURIComponent(params.scope), name: decodeURIComponent(params.name), version });
  } catch (err) {
    if (isAppError(err) && err.status === 404) notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await params;
  return { title: `@${p.scope}/${p.name}` };
}

export default async function SkillPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const wanted = (await searchParams).version;
  const skill = await load(await params, typeof wanted === 'string' && wanted.length <= 64 ? wanted : undefined);
  const m = skill.manifest;
  return (
    <article className="grid gap-8 lg:grid-cols-[1fr_18rem]">
      <div className="min-w-0 space-y-8">
        <header className="space-y-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight">
              <span className="text-zinc-500">@{skill.scope}/</span>
              {skill.name}
            </h1>
            <FormatBadge format={skill.format} />
            {skill.yanked && <span className="rounded bg-red-100 px-2 py-0.5 text-xs text-red-800">yanked</span>}
          </div>
          <p className="text-zinc-600 dark:text-zinc-400">{skill.description}</p>
          {skill.deprecated && (
            <p className="rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200" data-testid="deprecated">
              Deprecated: {skill.deprecated}
            </p>
          )}
          <InstallCommand scope={skill.scope} name={skill.name} />
          <Link
            href={`/playground?skill=${encodeURIComponent(`@${skill.scope}/${skill.name}`)}`}
            className="inline-block rounded-lg bg-emerald-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-700"
            data-testid="try-in-playground"
          >
            Try in playground
          </Link>
        </header>

        <section aria-labelledby="tools-heading" className="space-y-3">
          <h2 id="tools-heading" className="text-lg font-semibold">
            Tools <span className="text-sm font-normal text-zinc-500">({m.tools.length})</span>
          </h2>
          <ToolList tools={m.tools} />
          <UnlockPlanner tools={m.tools} next={`/skills/${skill.scope}/${skill.name}`} />
        </section>

        {m.instructions && (
          <section aria-labelledby="instructions-heading" className="space-y-3">
            <h2 id="instructions-heading" className="text-lg font-semibold">
              Instructions
            </h2>
            <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800" data-testid="instructions">
              <Markdown source={m.instructions} />
            </div>
          </section>
        )}

        {skill.changelog && (
          <section aria-labelledby="changelog-heading" className="space-y-3">
            <h2 id="changelog-heading" className="text-lg font-semibold">
              Changes in {skill.version}
            </h2>
            <div className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800" data-testid="changelog">
              <Markdown source={skill.changelog} />
            </div>
          </section>
        )}

        {skill.findings.length > 0 && (
          <section aria-labelledby="findings-heading" className="space-y-3">
            <h2 id="findings-heading" className="text-lg font-semibold">
              Scan findings
            </h2>
            <ul className="space-y-2 text-sm">
              {skill.findings.map((f, i) => (
                <li key={i} className="rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/40">
                  <div className="font-medium">
                    {f.message} <code className="text-xs text-zinc-500">{f.rule}</code>
                  </div>
                  <div className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    {f.file}:{f.line} — {f.excerpt}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>

      <aside className="space-y-6 text-sm">
        <dl className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
          <div>
            <dt className="text-zinc-500">Version</dt>
            <dd className="font-medium">{skill.version}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">Published</dt>
            <dd>
              <time dateTime={skill.publishedAt.toISOString()}>{skill.publishedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>
              {skill.publishedBy && <> by @{skill.publishedBy}</>}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Owner</dt>
            <dd>@{skill.scope}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">Downloads</dt>
            <dd data-testid="downloads">{skill.downloads.toLocaleString('en-US')}</dd>
          </div>
          {m.allowedTools && (
            <div>
              <dt className="text-zinc-500">Allowed tools</dt>
              <dd className="font-mono text-xs">{m.allowedTools}</dd>
            </div>
          )}
          {m.signature && (
            <div>
              <dt className="text-zinc-500">Signature</dt>
              <dd>
                {m.signature.verified === true ? '✔ verified' : m.signature.verified === false ? '✘ invalid' : 'unknown key'} ·{' '}
                <code className="text-xs">{m.signature.keyId}</code>
              </dd>
            </div>
          )}
          <div>
            <dt className="text-zinc-500">Content hash</dt>
            <dd className="truncate font-mono text-xs" title={skill.contentHash}>
              {skill.contentHash.slice(0, 16)}…
            </dd>
          </div>
        </dl>
        <div className="space-y-2">
          <h2 className="font-semibold">Files</h2>
          <ul className="space-y-1 font-mono text-xs text-zinc-600 dark:text-zinc-400" data-testid="file-list">
            {m.files.map((f) => (
              <li key={f} className="truncate">
                {f}
              </li>
            ))}
          </ul>
        </div>
        <div className="space-y-2">
          <h2 className="font-semibold">Versions</h2>
<VersionHistory scope={skill.scope} name={skill.name} current={skill.version} versions={skill.versions} distTags={skill.distTags} />
        </div>
      </aside>
    </article>
  );
}
