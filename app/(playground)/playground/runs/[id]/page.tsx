import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { serverContext } from '@/lib/server';
import { isAppError } from '@/lib/errors';
import { runCookieName } from '@/lib/api/run-access';
import { getRun } from '@/lib/runs/get-run';
import { currentUser } from '@/lib/auth/current-user';
import { JsonView } from './json-view';
import { RunView } from './run-view';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Run', robots: { index: false } };

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

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[6.5rem_1fr] gap-2 py-1.5">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const run = await load(id);
  const c = run.config;
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_19rem]">
      <div className="min-w-0 space-y-4">
        <header className="space-y-1">
          <p className="text-sm text-zinc-500">
            <Link href="/playground" className="hover:underline">
              Playground
            </Link>{' '}
            / run
          </p>
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="run-task">
            {c.task.length > 160 ? `${c.task.slice(0, 160)}…` : c.task}
          </h1>
          {run.forkedFromId && (
            <p className="text-sm text-zinc-500" data-testid="forked-from">
              Forked from{' '}
              <Link href={`/playground/runs/${run.forkedFromId}`} className="font-mono text-emerald-700 hover:underline dark:text-emerald-400">
                {run.forkedFromId}
              </Link>
            </p>
          )}
        </header>
        <RunView runId={run.id} initialStatus={run.status} canControl={run.canControl} manual={c.provider === 'manual'} />
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
              {c.allowedTools ? <code className="font-mono text-xs">{c.allowedTools}</code> : <span className="text-zinc-500">all (discovery)</span>}
            </Row>
            <Row label="Limits">
              {c.maxTurns} turns · {c.maxSteps} steps
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
              <JsonView value={c.script} label={`script (${c.script.length} turns)`} testId="run-script" />
            </div>
          )}
        </section>
      </aside>
    </div>
  );
}
