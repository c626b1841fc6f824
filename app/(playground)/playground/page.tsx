import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { currentUser } from '@/lib/session';
import { serverContext } from '@/lib/server';
import { runCookieName } from '@/lib/api';
import { scriptToTurns } from '@/lib/forms';
import { getRun, availableProviders } from '@/lib/runs';
import { providersFor } from '@/lib/auth';
import type { PlaygroundDraft } from './form-types';
import { startFor } from './draft-start';
import { PlaygroundForm } from './playground-form';
import { playgroundSkill, skillToolManifests } from './playground-skill';
import { UnlockPlanner } from '../../(account)/_components/unlock-planner';

export const dynamic = 'force-dynamic';

const DEFAULT_SKILL = '@skillyard/slugify';

type Search = Record<string, string | string[] | undefined>;

export async function generateMetadata({ searchParams }: { searchParams: Promise<Search> }): Promise<Metadata> {
  const skill = (await searchParams).skill;
  const title = typeof skill === 'string' && skill.length < 120 ? `Try ${skill} in the playground` : 'Playground';
  return { title, description: 'Give an agent some skills and a task, and watch every step live.', openGraph: { title } };
}

/** The draft of an edited re-run: the original run's configuration, to change and start again. */
async function draftFromRun(id: string, providers: string[]): Promise<PlaygroundDraft | null> {
  const token = (await cookies()).get(runCookieName(id))?.value ?? null;
  const user = await currentUser().catch(() => null);
  const run = await getRun(serverContext().db, id, { userId: user?.id ?? null, controlToken: token }).catch(() => null);
  if (!run) return null;
  const c = run.config;
  const skills = (await Promise.all(c.skills.map(playgroundSkill))).filter((s) => s !== null);
  return {
    skills,
    provider: providers.includes(c.provider) ? c.provider : (providers[0] ?? 'scripted'),
    model: c.model ?? '',
    allowedTools: c.allowedTools ?? '',
    task: c.task,
    turns: c.script?.length ? scriptToTurns(c.script) : startFor(skills).turns,
    maxTurns: c.maxTurns,
    maxSteps: c.maxSteps,
    visibility: c.visibility === 'public' || c.visibility === 'private' ? c.visibility : 'unlisted',
    forkOf: run.id,
    edited: true,
  };
}

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<Search> }) {
  const params = await searchParams;
  const user = await currentUser().catch(() => null);
  const providers: string[] = await providersFor(serverContext().db, user?.id ?? null, availableProviders());
  const requested = typeof params.skill === 'string' ? params.skill.slice(0, 200) : null;
  const from = typeof params.from === 'string' && /^[a-z0-9]{20,40}$/.test(params.from) ? params.from : null;
  let notice: React.ReactNode = null;
  let draft: PlaygroundDraft | null = null;

  if (from) {
    draft = await draftFromRun(from, providers);
    if (!draft)
      notice = (
        <>
          There is no run <code className="font-mono">{from}</code> you can see: starting from the demo skill instead.
        </>
      );
  }
  if (!draft) {
    const chosen = requested ? await playgroundSkill(requested) : null;
    if (requested && !chosen) {
      notice = (
        <>
          There is no skill <code className="font-mono break-all">{requested}</code> (or it is not yours to see). Pick one below, or{' '}
          <Link href={`/?q=${encodeURIComponent(requested.replace(/^@[^/]*\//, ''))}`} className="underline">
            search the registry
          </Link>
          .
        </>
      );
    }
    const skills = chosen ? [chosen] : requested ? [] : [await playgroundSkill(DEFAULT_SKILL)].filter((s) => s !== null);
    draft = {
      skills,
      provider: providers[0] ?? 'scripted',
      model: '',
      allowedTools: '',
      ...startFor(skills),
      maxTurns: 30,
      maxSteps: 30,
      visibility: 'unlisted',
      forkOf: null,
      edited: false,
    };
  }
  const storageKey = `skillyard:playground:${from ? `from=${from}` : requested ? `skill=${requested}` : 'default'}`;

  return (
    <div className="min-w-0 space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Playground</h1>
        <p className="max-w-3xl text-zinc-700 dark:text-zinc-300">
          Give an agent some skills and a task. It works in code: each turn it writes JavaScript that calls the skills&apos; tools in a sandbox, and you watch every step live. Runs
          are unlisted by default: anyone with the link can watch them.
        </p>
        {draft.forkOf && (
          <p data-testid="editing-run" className="text-sm text-zinc-700 dark:text-zinc-300">
            Editing a re-run of{' '}
            <Link href={`/playground/runs/${draft.forkOf}`} className="font-mono underline">
              {draft.forkOf}
            </Link>
            : change the task, script or limits, then start it as a new run linked to the original.
          </p>
        )}
        {notice && (
          <p
            role="alert"
            data-testid="playground-notice"
            className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
          >
            {notice}
          </p>
        )}
      </header>
      {/* the identity planner: connect buttons for what the first skill's gated tools need */}
      {draft.skills[0] && (
        <UnlockPlanner
          tools={await skillToolManifests(draft.skills[0].ref)}
          next={`/playground?skill=${encodeURIComponent(draft.skills[0].ref)}`}
          scope={draft.skills[0].ref.slice(1).split('/')[0]}
        />
      )}
      <PlaygroundForm providers={providers} initial={draft} storageKey={storageKey} signedIn={!!user} />
    </div>
  );
}
