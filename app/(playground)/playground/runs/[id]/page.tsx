import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { serverContext } from '@/lib/server';
import { isAppError } from '@/lib/errors';
import { runCookieName } from '@/lib/api';
import { getRun, describeRunPins } from '@/lib/runs';
import { currentUser } from '@/lib/session';
import { getSkill, parseSkillRef } from '@/lib/registry';
import { describeParams } from '@/app/_components/schema-params';
import { JsonView } from '@/app/_components/json-view';
import type { ManualTool } from './manual-turn';
import { RemovedRun } from './removed-run';
import { RunView } from './run-view';
import { RunPinsPanel } from './run-pins-panel';
import { RunCompareLinks } from './run-compare-links';

export const dynamic = 'force-dynamic';

const short = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const run = await load(id).catch(() => null);
  if (!run) return { title: 'Run', robots: { index: false } };
  const title = `Run ${run.status}: ${short(run.config.task, 60)}`;
  const description = `A ${run.config.provider} run of ${run.config.skills.join(', ')} in the Skillyard playground.`;
  return { title, description, robots: { index: false }, openGraph: { title, description, type: 'website' } };
}

/** The tools of the run's skills with their parameters, for the manual editor. */
async function manualTools(refs: string[]): Promise<ManualTool[]> {
  const skills = await Promise.all(refs.map((ref) => getSkill(serverContext().db, parseSkillRef(ref)).catch(() => null)));
  return skills.flatMap((s) =>
    (s?.manifest.tools ?? [])
      .filter((t) => t.visibility !== 'hidden')
      .map((t) => ({
        name: t.name,
        description: t.description,
        params: describeParams(t.params).map((p) => ({ name: p.name, type: p.type, required: p.required, description: p.description })),
      })),
  );
}

const PROVIDER_LABELS: Record<string, string> = {
  scripted: 'Scripted (replays a script — not a model)',
  manual: 'Manual (a person writes each turn)',
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
};

async function load(id: string) {
  const token = (await cookies()).get(runCookieName(id))?.value ?? null;
  try {
    const user = await currentUser().catch(() => null);
    return await getRun(serverContext().db, id, { userId: user?.id ?? null, controlToken: token });
  } catch (err) {
    if (isAppError(err) && err.status === 404) notFound();
    throw err;
  }
}

/** The run, or when retention removed it, the day it did (its link then says so). */
async function loadOrRemoved(id: string) {
  try {
    return { run: await load(id), removed: null };
  } catch (err) {
    if (isAppError(err) && err.code === 'run/removed') return { run: null, removed: String(err.details?.removedAt ?? '').slice(0, 10) };
    throw err;
  }
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[6.5rem_1fr] gap-2 py-1.5">
      <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { run, removed } = await loadOrRemoved(id);
  if (!run) return <RemovedRun removedOn={removed} />;
  const c = run.config;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_19rem]">
      <div className="min-w-0 space-y-4">
        <header className="space-y-1">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            <Link href="/playground" className="hover:underline">
              Playground
            </Link>{' '}
            / run
          </p>
          <h1 className="text-2xl font-semibold tracking-tight break-words" data-testid="run-task">
            {c.task.length > 160 ? `${c.task.slice(0, 160)}…` : c.task}
          </h1>
          {run.forkedFromId && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="forked-from">
              Forked from{' '}
              <Link href={`/playground/runs/${run.forkedFromId}`} className="font-mono text-emerald-700 hover:underline dark:text-emerald-400">
                {run.forkedFromId}
              </Link>
            </p>
          )}
        </header>
        {run.traceRemovedAt && (
          <p
            className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
            data-testid="trace-removed"
          >
            This run&apos;s trace was removed on {run.traceRemovedAt.toISOString().slice(0, 10)} under this registry&apos;s retention policy; its outcome and configuration are
            kept.
          </p>
        )}
        <RunView
          runId={run.id}
          initialStatus={run.status}
          canControl={run.canControl}
          manual={c.provider === 'manual'}
          tools={c.provider === 'manual' && run.canControl ? await manualTools(c.skills) : []}
          storedError={run.error}
        />
      </div>

      <aside className="space-y-4 lg:self-start" aria-labelledby="config-heading">
        <section className="rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="run-config">
          <h2 id="config-heading" className="mb-2 font-semibold">
            Configuration
          </h2>
          <dl className="divide-y divide-zinc-100 dark:divide-zinc-900">
            <Row label="Skills">
              <ul className="space-y-0.5">
                {c.skills.map((s) => (
                  <li key={s} className="font-mono text-xs">
                    {s}
                  </li>
                ))}
              </ul>
            </Row>
            <Row label="Provider">{PROVIDER_LABELS[c.provider] ?? c.provider}</Row>
            {c.model && <Row label="Model">{c.model}</Row>}
            <Row label="Allowed tools">
              {c.allowedTools ? <code className="font-mono text-xs">{c.allowedTools}</code> : <span className="text-zinc-600 dark:text-zinc-400">all (discovery)</span>}
            </Row>
            <Row label="Limits">
              {c.maxTurns} {c.maxTurns === 1 ? 'turn' : 'turns'} · {c.maxSteps} {c.maxSteps === 1 ? 'step' : 'steps'}
            </Row>
            <Row label="Visibility">{run.visibility}</Row>
            <Row label="Created">
              <time dateTime={run.createdAt.toISOString()}>{run.createdAt.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>
            </Row>
            <Row label="Run id">
              <code className="font-mono text-xs">{run.id}</code>
            </Row>
          </dl>
          {c.task.length > 160 && (
            <div className="mt-3">
              <JsonView value={c.task} label="task" />
            </div>
          )}
          {c.script && c.script.length > 0 && (
            <div className="mt-3">
              <JsonView value={c.script} label={`script (${c.script.length} ${c.script.length === 1 ? 'turn' : 'turns'})`} testId="run-script" />
            </div>
          )}
        </section>
        <RunPinsPanel pins={run.pins} skills={run.pins ? await describeRunPins(serverContext().db, run.pins) : []} />
        <RunCompareLinks runId={run.id} parentId={run.forkedFromId} />
      </aside>
    </div>
  );
}
