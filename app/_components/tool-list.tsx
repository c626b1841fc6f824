// A skill's tools on its page: what each does, its parameters (types, enum values,
// defaults), what it needs before it runs here, and a form to try it.
import type { ToolManifest } from '@/lib/skills';
import type { SchemaField } from '@/lib/forms';
import { LockIcon } from './lock-icon';
import { ToolForm } from './tool-form';
import type { ToolAvailability } from './tool-availability';
import { unlockText } from './unlock-text';

function ParamTable({ fields }: { fields: SchemaField[] }) {
  return (
    <>
      {/* a narrow screen gets one block per parameter instead of a table to scroll sideways */}
      <ul className="space-y-2 text-xs sm:hidden" data-testid="param-list" aria-label="Parameters">
        {fields.map((f) => (
          <li key={f.name} className="min-w-0 border-t border-zinc-100 pt-2 first:border-t-0 first:pt-0 dark:border-zinc-900">
            <div className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-mono font-medium break-all">{f.name}</span>
              {f.required ? <span className="text-red-700 dark:text-red-400">required</span> : null}
              <span className="font-mono break-all text-sky-800 dark:text-sky-300">{f.type}</span>
              {f.default !== undefined && <span className="font-mono break-all text-zinc-600 dark:text-zinc-400">= {JSON.stringify(f.default)}</span>}
            </div>
            {f.description && <p className="mt-0.5 break-words text-zinc-700 dark:text-zinc-300">{f.description}</p>}
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block" tabIndex={0} role="region" aria-label="Parameters">
        <table className="w-full min-w-[28rem] text-left text-xs" data-testid="param-table">
          <thead>
            <tr className="text-zinc-700 dark:text-zinc-300">
              <th scope="col" className="py-1 pr-3 font-medium">
                Parameter
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Type
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                Default
              </th>
              <th scope="col" className="py-1 font-medium">
                Description
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.name} className="border-t border-zinc-100 align-top dark:border-zinc-900">
                <td className="py-1 pr-3 font-mono whitespace-nowrap">
                  {f.name}
                  {f.required ? <span className="ml-1 font-sans text-red-700 dark:text-red-400">required</span> : null}
                </td>
                <td className="py-1 pr-3 font-mono break-words text-sky-800 dark:text-sky-300" data-testid="param-type">
                  {f.type}
                </td>
                <td className="py-1 pr-3 font-mono break-all" data-testid="param-default">
                  {f.default !== undefined ? JSON.stringify(f.default) : ''}
                </td>
                <td className="py-1 break-words text-zinc-700 dark:text-zinc-300">{f.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function ToolList({ skill, tools, manifests }: { skill: string; tools: ToolAvailability[]; manifests: ToolManifest[] }) {
  if (tools.length === 0) {
    return <p className="text-sm text-zinc-700 dark:text-zinc-300">Instruction-only skill: no tools, its instructions are the skill.</p>;
  }
  const byName = new Map(manifests.map((m) => [m.name, m]));
  return (
    <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {tools.map((t) => {
        const m = byName.get(t.name);
        const locked = t.unlocks.length ? unlockText(t) : null;
        return (
          <li key={t.name} className="min-w-0 space-y-2 p-4" data-testid="tool" data-tool={t.name}>
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-mono font-medium break-all">{t.name}</h3>
              {/* the readme may use the name as declared (count_words); say both where they differ */}
              {m && m.sourceName && m.sourceName !== t.name && (
                <span data-testid="tool-source-name" className="text-xs text-zinc-600 dark:text-zinc-400">
                  declared as <code className="font-mono">{m.sourceName}</code>
                </span>
              )}
              {m?.role && <span className="rounded bg-zinc-100 px-1.5 text-xs dark:bg-zinc-800">{m.role}</span>}
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{t.handler} handler</span>
              {locked && (
                <span data-testid="tool-locked" className="inline-flex items-center gap-1 rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                  <LockIcon /> needs {t.unlocks.map((u) => u.issuer).join(', ')}
                </span>
              )}
              {t.cannotRun && (
                <span data-testid="tool-cannot-run" className="rounded border border-dashed border-zinc-400 px-1.5 text-xs text-zinc-700 dark:text-zinc-300">
                  cannot run here
                </span>
              )}
              {m?.capabilities.map((c) => (
                <span key={c} className="rounded bg-sky-100 px-1.5 text-xs text-sky-900 dark:bg-sky-950 dark:text-sky-200">
                  {c}
                </span>
              ))}
            </div>
            <p className="text-sm break-words text-zinc-700 dark:text-zinc-300">{t.description}</p>
            {locked && (
              <p className="text-xs text-amber-900 dark:text-amber-200" data-testid="tool-lock">
                Locked: {locked}.
              </p>
            )}
            {t.cannotRun && <p className="text-xs text-zinc-700 dark:text-zinc-300">Cannot run on this server: it {t.cannotRun}.</p>}
            {t.fields.length > 0 && <ParamTable fields={t.fields} />}
            <details className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
              <summary className="cursor-pointer text-sm font-medium">Try {t.name}</summary>
              <div className="mt-3">
                <ToolForm tool={{ name: t.name, skill, fields: t.fields, cannotRun: t.cannotRun, locked }} />
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
