'use client';
// Which versions a fork runs (lib/runs/fork-run.ts): the run's own pins (the default: a
// scripted or manual run's fork then makes the same calls with the same results), the
// latest version of every skill, or one skill moved to a version chosen from its list.
import { useEffect, useId, useState } from 'react';

export type ForkVersions = { mode: 'same' } | { mode: 'latest' } | { mode: 'move'; skill: string; version: string };

type Pin = { ref: string; version: string };

export function ForkVersionChoice({ pins, onChange }: { pins: Pin[]; onChange: (choice: ForkVersions | null) => void }) {
  const name = useId();
  const [mode, setMode] = useState<ForkVersions['mode']>('same');
  const [skill, setSkill] = useState(pins[0]?.ref ?? '');
  const [versions, setVersions] = useState<string[] | null>(null);
  const [version, setVersion] = useState('');

  // the chosen skill's published versions, newest first, for the move
  useEffect(() => {
    if (mode !== 'move' || !skill) return;
    const ctl = new AbortController();
    setVersions(null);
    const [scope, skillName] = skill.slice(1).split('/');
    fetch(`/api/v1/skills/${scope}/${skillName}/versions`, { cache: 'no-store', signal: ctl.signal })
      .then((r) => (r.ok ? (r.json() as Promise<{ versions: Array<{ version: string }> }>) : Promise.reject(new Error(String(r.status)))))
      .then((r) => {
        const list = r.versions.map((v) => v.version);
        setVersions(list);
        const pinned = pins.find((p) => p.ref === skill)?.version;
        setVersion(list.find((v) => v !== pinned) ?? list[0] ?? '');
      })
      .catch(() => !ctl.signal.aborted && setVersions([]));
    return () => ctl.abort();
  }, [mode, skill, pins]);

  useEffect(() => {
    if (mode === 'move') onChange(skill && version ? { mode, skill, version } : null);
    else onChange({ mode });
  }, [mode, skill, version, onChange]);

  const option = (value: ForkVersions['mode'], label: React.ReactNode, testId: string) => (
    <label className="flex items-start gap-2">
      <input type="radio" name={name} value={value} checked={mode === value} onChange={() => setMode(value)} data-testid={testId} className="mt-1" />
      <span>{label}</span>
    </label>
  );

  return (
    <fieldset className="space-y-1.5" data-testid="fork-versions">
      <legend className="font-medium">Versions to run</legend>
      {option(
        'same',
        <>
          The same as this run <span className="text-amber-900/80 dark:text-amber-200/80">({pins.map((p) => `${p.ref}@${p.version}`).join(', ') || 'as configured'})</span>
        </>,
        'fork-same',
      )}
      {option('latest', 'The latest version of every skill', 'fork-latest')}
      {pins.length > 0 && option('move', 'Move one skill to another version', 'fork-move')}
      {mode === 'move' && (
        <div className="ml-6 flex flex-wrap items-center gap-2">
          <label className="sr-only" htmlFor={`${name}-skill`}>
            Skill to move
          </label>
          <select
            id={`${name}-skill`}
            data-testid="fork-move-skill"
            value={skill}
            onChange={(e) => setSkill(e.target.value)}
            className="rounded-md border border-amber-400 bg-white px-1.5 py-1 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {pins.map((p) => (
              <option key={p.ref} value={p.ref}>
                {p.ref} (now {p.version})
              </option>
            ))}
          </select>
          <label className="sr-only" htmlFor={`${name}-version`}>
            Version
          </label>
          <select
            id={`${name}-version`}
            data-testid="fork-move-version"
            value={version}
            disabled={!versions?.length}
            onChange={(e) => setVersion(e.target.value)}
            className="rounded-md border border-amber-400 bg-white px-1.5 py-1 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {versions === null && <option value="">loading…</option>}
            {versions?.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      )}
    </fieldset>
  );
}
