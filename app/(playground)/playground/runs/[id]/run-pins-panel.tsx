// What the run used, exactly (lib/runs/run-pins.ts): each skill at its pinned version with
// its digests, and what happened to that version since (yanked, a newer one), then the
// provider, model, allowed tools, limits and the code of every turn. Server-rendered.
import Link from 'next/link';
import type { RunPins, PinnedSkillNow } from '@/lib/runs';
import { JsonView } from '@/app/_components/json-view';

const shortDigest = (d: string | null) => (d ? `${d.slice(0, 19)}…` : '—');

function skillHref(ref: string, version: string) {
  const [scope, name] = ref.slice(1).split('/');
  return `/skills/${scope}/${name}?version=${encodeURIComponent(version)}`;
}

function PinnedSkillItem({ pin }: { pin: PinnedSkillNow }) {
  return (
    <li className="space-y-1 py-2" data-testid="pinned-skill" data-ref={pin.ref} data-version={pin.version}>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <Link href={skillHref(pin.ref, pin.version)} className="font-mono text-xs text-emerald-700 hover:underline dark:text-emerald-400">
          {pin.ref}@{pin.version}
        </Link>
        {pin.latest && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="pin-newer">
            latest is {pin.latest}
          </span>
        )}
      </div>
      {pin.yankedAt && (
        <p className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200" data-testid="pin-yanked">
          Yanked since, on {pin.yankedAt.toISOString().slice(0, 10)}
          {pin.yankReason ? `: ${pin.yankReason}` : ''}. This run used it before that.
        </p>
      )}
      {pin.deleted && (
        <p className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200" data-testid="pin-deleted">
          Deleted since: a fork with the same versions cannot run it.
        </p>
      )}
      <details className="text-xs">
        <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">Digests</summary>
        <dl className="mt-1 space-y-0.5 font-mono break-all text-zinc-700 dark:text-zinc-300">
          <div>
            <dt className="inline text-zinc-600 dark:text-zinc-400">files </dt>
            <dd className="inline" title={pin.contentHash}>
              {shortDigest(pin.contentHash)}
            </dd>
          </div>
          <div>
            <dt className="inline text-zinc-600 dark:text-zinc-400">package </dt>
            <dd className="inline" title={pin.integrity ?? undefined}>
              {shortDigest(pin.integrity)}
            </dd>
          </div>
          {pin.tools.map((t) => (
            <div key={t.name}>
              <dt className="inline text-zinc-600 dark:text-zinc-400">{t.name} schema </dt>
              <dd className="inline" title={t.schemaDigest} data-testid="tool-digest">
                {shortDigest(t.schemaDigest)}
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </li>
  );
}

export function RunPinsPanel({ pins, skills }: { pins: RunPins | null; skills: PinnedSkillNow[] }) {
  return (
    <section className="rounded-xl border border-zinc-200 p-4 text-sm dark:border-zinc-800" data-testid="run-pins" aria-labelledby="pins-heading">
      <h2 id="pins-heading" className="font-semibold">
        Pinned versions
      </h2>
      {!pins ? (
        <p className="mt-1 text-zinc-600 dark:text-zinc-400">This run was made before runs recorded their versions.</p>
      ) : (
        <>
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">What this run used, whatever was published since. A fork runs these again unless you choose otherwise.</p>
          <ul className="divide-y divide-zinc-100 dark:divide-zinc-900">
            {skills.map((s) => (
              <PinnedSkillItem key={s.ref} pin={s} />
            ))}
          </ul>
          {skills.length === 0 && <p className="text-zinc-600 dark:text-zinc-400">No skill could be pinned (none the run&apos;s creator could see).</p>}
          <p className="mt-1 text-xs text-zinc-700 dark:text-zinc-300" data-testid="pins-settings">
            {pins.provider}
            {pins.model ? ` · ${pins.model}` : ''} · {pins.limits.maxTurns} turns · {pins.limits.maxSteps} steps · tools: {pins.allowedTools || 'all (discovery)'}
          </p>
          {pins.turns && pins.turns.length > 0 && (
            <div className="mt-2">
              <JsonView value={pins.turns} label={`code of ${pins.turns.length} ${pins.turns.length === 1 ? 'turn' : 'turns'}`} testId="pins-turns" />
            </div>
          )}
        </>
      )}
    </section>
  );
}
