import type { Metadata } from 'next';
import { cache } from 'react';
import Link from 'next/link';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { serverContext } from '@/lib/server';
import { isAppError } from '@/lib/errors';
import { readSkillDetail, type SkillDetail, readFilePrefix, packageLimitSettings, starredBy, mayManageSkill, skillUsage, versionTrustById } from '@/lib/registry';
import { DEFAULT_LIMITS } from '@/lib/skills';
import { FormatBadge } from '@/app/_components/format-badge';
import { HighlightedSource } from '@/app/_components/highlighted-source';
import { InstallCommand } from '@/app/_components/install-command';
import { McpConnect } from '@/app/_components/mcp-connect';
import { mcpClientConfig, siteOrigin } from '@/lib/mcp';
import { VersionHistory } from '@/app/_components/version-history';
import { SkillMarkdown } from '@/app/_components/skill-markdown';
import { ToolList } from '@/app/_components/tool-list';
import { StarButton } from '@/app/_components/star-button';
import { toolAvailability } from '@/app/_components/tool-availability';
import { currentUser } from '@/lib/session';
import { heldTokenClaims } from '@/lib/teams';
import { UnlockPlanner } from '../../../../(account)/_components/unlock-planner';
import { packageFacts } from './package-facts';
import { SkillSidebar } from './skill-sidebar';
import { AgentSupport } from './agent-support';
import { SkillUsagePanel } from './skill-usage-panel';
import { UpgradeCheckPanel } from './upgrade-check-panel';
import { TrustSections } from './trust-sections';
import { listTrustedPublishers, oidcSettings } from '@/lib/trusted-publishing';
import { EvidenceSection } from './evidence-section';
import { ProvenanceSection } from './provenance-section';
import { TrustedPublishersPanel } from './trusted-publishers-panel';

export const dynamic = 'force-dynamic';

type Params = { scope: string; name: string };
type Search = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v.slice(0, 500) : undefined);

/** tools shown per page of a skill's tool list (`?tools=2` for the second page) */
const TOOLS_PER_PAGE = 50;
const maxToolsPerSkill = () => packageLimitSettings().maxTools ?? DEFAULT_LIMITS.maxTools;
const toolPageOf = (search: Search) => Math.max(1, Number.parseInt(one(search.tools) ?? '1', 10) || 1);

// one read per request, shared by the metadata and the page (React's per-request cache);
// a version stored with more tools than a skill may have now is read a page of tools at a time
const load = cache(async (scope: string, name: string, version: string | undefined, toolPage: number): Promise<{ detail: SkillDetail; skillId: string; versionId: string }> => {
  try {
    const user = await currentUser().catch(() => null);
    const viewer = user ? { userId: user.id } : null;
    const toolsPage = { offset: (toolPage - 1) * TOOLS_PER_PAGE, limit: TOOLS_PER_PAGE, maxTools: maxToolsPerSkill() };
    return await readSkillDetail(serverContext().db, { scope: decodeURIComponent(scope), name: decodeURIComponent(name), version }, viewer, { toolsPage });
  } catch (err) {
    if (isAppError(err) && err.status === 404) notFound();
    throw err;
  }
});

export async function generateMetadata({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }): Promise<Metadata> {
  const p = await params;
  const search = await searchParams;
  const skill = (await load(p.scope, p.name, one(search.version), toolPageOf(search)).catch(() => null))?.detail;
  const title = `@${p.scope}/${p.name}`;
  if (!skill) return { title };
  const description = skill.description.slice(0, 300);
  return { title: `${title}@${skill.version}`, description, openGraph: { title: `${title} — a Skillyard skill`, description, type: 'website' } };
}

async function FileView({ skill, path }: { skill: SkillDetail; path: string }) {
  if (!skill.manifest.files.includes(path)) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        This version has no file {path}.
      </p>
    );
  }
  // only the start of the file is read (sliced in the database): a view never costs the whole file
  const prefix = await readFilePrefix(serverContext().db, { scope: skill.scope, name: skill.name, version: skill.version }, path).catch(() => null);
  if (prefix === null) return <p className="text-sm text-zinc-700 dark:text-zinc-300">This file could not be read.</p>;
  return <HighlightedSource path={path} source={prefix.text} totalBytes={prefix.truncated ? prefix.size : undefined} />;
}

export default async function SkillPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const search = await searchParams;
  const p = await params;
  // the skill and version were found (and checked visible) once; what the page reads more of them goes by id
  const { detail: skill, skillId, versionId } = await load(p.scope, p.name, one(search.version), toolPageOf(search));
  const file = one(search.file);
  const m = skill.manifest;
  const ref = `@${skill.scope}/${skill.name}`;
  const user = await currentUser().catch(() => null);
  const tools = toolAvailability(m, skill.scope, await heldTokenClaims(serverContext().db, user?.id ?? null), { signedIn: !!user });
  const facts = packageFacts(m);
  const base = `/skills/${skill.scope}/${skill.name}`;
  const manage = await mayManageSkill(serverContext().db, skill.scope, user?.id ?? null);
  const starred = user ? (await starredBy(serverContext().db, user.id, [skill])).size > 0 : false;
  const here = search.version ? `${base}?version=${encodeURIComponent(skill.version)}` : base;
  const versionQuery = search.version ? `version=${encodeURIComponent(skill.version)}&` : '';
  const runnable = tools.filter((t) => !t.cannotRun).length;
  // `tools` is every tool, or (a version with more than a skill may have now) only this page's
  const paged = skill.toolCount > m.tools.length;
  const toolCount = paged ? skill.toolCount : tools.length;
  const toolPages = Math.max(1, Math.ceil(toolCount / TOOLS_PER_PAGE));
  const toolPage = paged ? Math.floor(skill.toolsFrom / TOOLS_PER_PAGE) + 1 : Math.min(toolPages, toolPageOf(search));
  const shownTools = paged ? tools : tools.slice((toolPage - 1) * TOOLS_PER_PAGE, toolPage * TOOLS_PER_PAGE);
  const toolPageHref = (n: number) => {
    const q = new URLSearchParams();
    if (search.version) q.set('version', skill.version);
    if (n > 1) q.set('tools', String(n));
    return `${base}${q.size ? `?${q}` : ''}#tools-heading`;
  };
  // over MCP, private skills and tools gated by an account connection (@oauth/...) need an API token
  const needsToken = skill.visibility === 'private' || m.tools.some((t) => Object.keys(t.inputTokens).some((issuer) => issuer.startsWith('@oauth/')));
  // a page showing an older version installs that version, not the latest
  const pinned = skill.distTags.latest && skill.version !== skill.distTags.latest ? skill.version : undefined;
  const mcp = mcpClientConfig({ origin: siteOrigin(await headers()), scope: skill.scope, name: skill.name, needsToken, version: pinned });
  const publishers = manage && user ? await listTrustedPublishers(serverContext().db, skill, user.id).catch(() => null) : null;
  const trust = await versionTrustById(serverContext().db, { scope: skill.scope, name: skill.name, versionId });

  return (
    <article className="grid min-w-0 grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 space-y-8">
        <header className="space-y-3">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight break-all">
              <span className="text-zinc-600 dark:text-zinc-400">@{skill.scope}/</span>
              {skill.name}
            </h1>
            <FormatBadge format={skill.format} />
            <span className="text-sm text-zinc-700 dark:text-zinc-300">v{skill.version}</span>
            {skill.visibility === 'private' && (
              <span data-testid="skill-private" title="Only members of its scope can see it" className="rounded bg-zinc-200 px-2 py-0.5 text-xs font-medium text-zinc-800 dark:bg-zinc-700 dark:text-zinc-100">
                private
              </span>
            )}
            {skill.yanked && <span className="rounded bg-red-100 px-2 py-0.5 text-xs text-red-800">yanked</span>}
            {skill.deprecated && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900">deprecated</span>}
            <StarButton scope={skill.scope} name={skill.name} stars={skill.stars} starred={starred} signedIn={!!user} next={here} />
          </div>
          {skill.deprecated && (
            <div role="note" data-testid="deprecation-banner" className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
              <p className="font-medium">Version {skill.version} is deprecated.</p>
              <p className="mt-1 break-words whitespace-pre-line" data-testid="deprecation-message">
                {skill.deprecated}
              </p>
            </div>
          )}
          {skill.yanked && (
            <p role="note" data-testid="yanked-banner" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">
              Version {skill.version} was yanked: ranges and listings skip it; it can still be installed by its exact number.
              {skill.yankReason && <span data-testid="yank-reason"> Reason: {skill.yankReason}</span>}
            </p>
          )}
          <p className="break-words text-zinc-700 dark:text-zinc-300">{skill.description}</p>
          <div className="flex flex-wrap items-center gap-3">
            <Link
              href={`/playground?skill=${encodeURIComponent(ref)}`}
              className="inline-block rounded-lg bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800"
              data-testid="try-in-playground"
            >
              Try in playground
            </Link>
            {tools.length > 0 && runnable < tools.length && (
              <span data-testid="runnable-summary" className="text-sm text-zinc-700 dark:text-zinc-300">
                {runnable === 0 ? 'None of its tools can run on this server.' : `${runnable} of ${tools.length} tools can run on this server.`}
              </span>
            )}
          </div>
          <InstallCommand scope={skill.scope} name={skill.name} command={mcp.addCommand} />
          <UnlockPlanner tools={m.tools} next={base} scope={skill.scope} />
        </header>

        <TrustSections skill={skill} versionId={versionId} userId={user?.id ?? null} manage={manage} from={one(search.from)} versionParam={search.version ? skill.version : null} base={base} />

        {m.instructions && (
          <section aria-labelledby="readme-heading" className="space-y-3">
            <h2 id="readme-heading" className="text-lg font-semibold">
              Readme
            </h2>
            <div className="min-w-0 rounded-xl border border-zinc-200 p-4 break-words sm:p-5 dark:border-zinc-800" data-testid="instructions">
              <SkillMarkdown source={m.instructions} />
            </div>
          </section>
        )}

        {skill.changelog && (
          <section aria-labelledby="changelog-heading" className="space-y-3">
            <h2 id="changelog-heading" className="text-lg font-semibold">
              Changelog <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">for {skill.version}</span>
            </h2>
            <div className="min-w-0 rounded-xl border border-zinc-200 p-4 text-sm break-words sm:p-5 dark:border-zinc-800" data-testid="changelog">
              <SkillMarkdown source={skill.changelog} />
            </div>
          </section>
        )}

        <section aria-labelledby="tools-heading" className="space-y-3">
          <h2 id="tools-heading" className="text-lg font-semibold">
            Tools <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">({toolCount})</span>
          </h2>
          {paged && (
            <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="tools-paged-note">
              This version has more tools than a skill may have now ({maxToolsPerSkill()}); the page reads only the tools it shows, and what it says about running
              and unlocking tools covers those.
            </p>
          )}
          <ToolList skill={ref} tools={shownTools} manifests={m.tools} />
          {toolPages > 1 && (
            <nav aria-label="Tool pages" className="flex items-center gap-3 text-sm" data-testid="tool-pages">
              {toolPage > 1 && (
                <Link href={toolPageHref(toolPage - 1)} className="underline">
                  Previous
                </Link>
              )}
              <span>
                Tools {(toolPage - 1) * TOOLS_PER_PAGE + 1}–{(toolPage - 1) * TOOLS_PER_PAGE + shownTools.length} of {toolCount}
              </span>
              {toolPage < toolPages && (
                <Link href={toolPageHref(toolPage + 1)} className="underline">
                  Next
                </Link>
              )}
            </nav>
          )}
        </section>

        {tools.length > 0 && <McpConnect config={mcp} />}

        <EvidenceSection trust={trust} fileHref={(f) => `${base}?${versionQuery}file=${encodeURIComponent(f)}#files`} />
        <ProvenanceSection trust={trust} />

        <section aria-labelledby="files-heading" className="space-y-3" id="files">
          <h2 id="files-heading" className="text-lg font-semibold">
            Files <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">({m.files.length})</span>
          </h2>
          <ul className="flex flex-wrap gap-2 font-mono text-xs" data-testid="file-list">
            {m.files.map((f) => (
              <li key={f} className="max-w-full">
                <Link
                  href={`${base}?${versionQuery}file=${encodeURIComponent(f)}#files`}
                  aria-current={f === file ? 'page' : undefined}
                  className={`block truncate rounded border px-2 py-0.5 ${f === file ? 'border-emerald-700 bg-emerald-50 dark:bg-emerald-950' : 'border-zinc-300 hover:border-emerald-700 dark:border-zinc-700'}`}
                >
                  {f}
                </Link>
              </li>
            ))}
          </ul>
          {file ? <FileView skill={skill} path={file} /> : <p className="text-xs text-zinc-600 dark:text-zinc-400">Pick a file to read its source.</p>}
        </section>
      </div>

      <div className="min-w-0 space-y-6">
        <SkillSidebar skill={skill} facts={facts} base={base} />
        <SkillUsagePanel usage={await skillUsage(serverContext().db, skillId)} downloads={skill.downloads} />
        {manage && !skill.yanked && <UpgradeCheckPanel scope={skill.scope} name={skill.name} version={skill.version} />}
        {publishers && <TrustedPublishersPanel scope={skill.scope} name={skill.name} publishers={publishers} defaultIssuer={oidcSettings().githubIssuers[0]} />}
        <AgentSupport agents={m.agents} />
        <VersionHistory scope={skill.scope} name={skill.name} current={skill.version} versions={skill.versions} distTags={skill.distTags} manage={manage} />
      </div>
    </article>
  );
}
