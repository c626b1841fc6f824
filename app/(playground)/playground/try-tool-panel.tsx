'use client';
// "Try one tool without an agent", in the playground: pick a tool of the chosen skills.
import { useState } from 'react';
import { ToolForm } from '@/app/_components/tool-form';
import type { SelectedSkill } from './form-types';
import { inputClass, panelClass } from './form-styles';
import { unlockText } from '@/app/_components/unlock-text';

export function TryToolPanel({ skills }: { skills: SelectedSkill[] }) {
  const options = skills.flatMap((s) => s.tools.map((t) => ({ key: `${s.ref} ${t.name}`, skill: s.ref, tool: t })));
  const [picked, setPicked] = useState('');
  if (options.length === 0) return null;
  const current = options.find((o) => o.key === picked) ?? options[0];
  return (
    <details className={panelClass} data-testid="try-tool-panel">
      <summary className="cursor-pointer text-sm font-semibold">Try one tool without an agent</summary>
      <div className="mt-3 space-y-3">
        <label htmlFor="try-tool" className="sr-only">
          Tool to try
        </label>
        <select id="try-tool" data-testid="try-tool-select" className={inputClass} value={current.key} onChange={(e) => setPicked(e.target.value)}>
          {options.map((o) => (
            <option key={o.key} value={o.key}>
              {o.tool.name} ({o.skill})
            </option>
          ))}
        </select>
        <ToolForm
          key={current.key}
          tool={{
            name: current.tool.name,
            skill: current.skill,
            fields: current.tool.fields,
            cannotRun: current.tool.cannotRun,
            locked: current.tool.unlocks.length ? unlockText(current.tool) : null,
          }}
        />
      </div>
    </details>
  );
}
