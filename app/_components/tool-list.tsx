import type { ToolManifest } from '@/lib/skills/types';
import { LockIcon } from './lock-icon';

export function ToolList({ tools }: { tools: ToolManifest[] }) {
  if (tools.length === 0) {
    return <p className="text-sm text-zinc-500">Instruction-only skill: no tools, its instructions are the skill.</p>;
  }
  return (
    <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {tools.map((t) => {
        const params = (t.params?.properties ?? {}) as Record<string, { type?: string; description?: string }>;
        const required = new Set((t.params?.required as string[] | undefined) ?? []);
        const gated = Object.keys(t.inputTokens);
        return (
          <li key={t.name} className="space-y-2 p-4" data-testid="tool">
            <div className="flex flex-wrap items-center gap-2">
              <code className="font-mono font-medium">{t.name}</code>
              {t.role && <span className="rounded bg-zinc-100 px-1.5 text-xs dark:bg-zinc-800">{t.role}</span>}
              {t.visibility === 'hidden' && <span className="rounded bg-zinc-100 px-1.5 text-xs dark:bg-zinc-800">hidden</span>}
              <span className="text-xs text-zinc-500">{t.handler.kind}</span>
              {gated.map((issuer) => (
                <span
                  key={issuer}
                  title={`Needs a ${issuer} token`}
                  className="inline-flex items-center gap-1 rounded bg-amber-100 px-1.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300"
                >
                  <LockIcon /> {issuer}
                </span>
              ))}
              {t.capabilities.map((c) => (
                <span key={c} className="rounded bg-sky-100 px-1.5 text-xs text-sky-800 dark:bg-sky-950 dark:text-sky-300">
                  {c}
                </span>
              ))}
            </div>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t.description}</p>
            {Object.keys(params).length > 0 && (
              <table className="w-full text-left text-xs">
                <tbody>
                  {Object.entries(params).map(([name, schema]) => (
                    <tr key={name} className="align-top">
                      <td className="w-40 py-0.5 pr-3 font-mono">
                        {name}
                        {required.has(name) ? '' : '?'}
                      </td>
                      <td className="w-24 py-0.5 pr-3 text-zinc-500">{schema.type ?? 'any'}</td>
                      <td className="py-0.5 text-zinc-600 dark:text-zinc-400">{schema.description ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        );
      })}
    </ul>
  );
}
