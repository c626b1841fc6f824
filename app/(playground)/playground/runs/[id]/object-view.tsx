// Structured components from a tool's `object` capability. Props come from skill code:
// untrusted, so everything is rendered as text (markdown without raw HTML) and capped.
'use client';
import { memo } from 'react';
import dynamic from 'next/dynamic';
import { JsonView } from '@/app/_components/json-view';

// The markdown renderer (react-markdown and its parsers, most of this page's script) loads
// only when a run shows a markdown object: every other run page starts without it.
const Markdown = dynamic(() => import('@/app/_components/markdown').then((m) => m.Markdown), {
  loading: () => <p className="text-xs text-zinc-600 dark:text-zinc-400">Loading…</p>,
});

export type ObjectComponent = { id?: string; type?: string; props?: Record<string, unknown>; skill?: string; tool?: string };

const MAX_ROWS = 200;
const MAX_BARS = 50;

const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)).slice(0, 500);

function Table({ props }: { props: Record<string, unknown> }) {
  const rows = Array.isArray(props.rows) ? props.rows : Array.isArray(props.data) ? props.data : [];
  const columns: string[] = Array.isArray(props.columns)
    ? props.columns.map((c) => (typeof c === 'object' && c ? cell((c as { label?: unknown; key?: unknown }).label ?? (c as { key?: unknown }).key) : cell(c)))
    : [...new Set(rows.flatMap((r) => (r && typeof r === 'object' && !Array.isArray(r) ? Object.keys(r) : [])))];
  const keys: string[] = Array.isArray(props.columns)
    ? props.columns.map((c) => (typeof c === 'object' && c ? cell((c as { key?: unknown }).key ?? (c as { label?: unknown }).label) : cell(c)))
    : columns;
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs">
        {columns.length > 0 && (
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i} className="border-b border-zinc-300 px-2 py-1 font-semibold dark:border-zinc-700">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.slice(0, MAX_ROWS).map((r, i) => (
            <tr key={i} className="odd:bg-zinc-50 dark:odd:bg-zinc-900">
              {Array.isArray(r)
                ? r.map((v, j) => (
                    <td key={j} className="px-2 py-1 font-mono">
                      {cell(v)}
                    </td>
                  ))
                : keys.map((k) => (
                    <td key={k} className="px-2 py-1 font-mono">
                      {cell(r && typeof r === 'object' ? (r as Record<string, unknown>)[k] : r)}
                    </td>
                  ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_ROWS && <p className="mt-1 text-xs text-zinc-500">{rows.length - MAX_ROWS} more rows not shown</p>}
    </div>
  );
}

function bars(props: Record<string, unknown>): Array<{ label: string; value: number }> {
  if (Array.isArray(props.labels) && Array.isArray(props.values)) {
    return props.labels.map((l, i) => ({ label: cell(l), value: Number((props.values as unknown[])[i]) || 0 }));
  }
  const data = Array.isArray(props.data) ? props.data : Array.isArray(props.bars) ? props.bars : [];
  return data.map((d, i) =>
    d && typeof d === 'object'
      ? {
          label: cell((d as Record<string, unknown>).label ?? (d as Record<string, unknown>).name ?? (d as Record<string, unknown>).x ?? i),
          value: Number((d as Record<string, unknown>).value ?? (d as Record<string, unknown>).y) || 0,
        }
      : { label: String(i + 1), value: Number(d) || 0 },
  );
}

function BarChart({ props }: { props: Record<string, unknown> }) {
  const data = bars(props).slice(0, MAX_BARS);
  const max = Math.max(...data.map((d) => Math.abs(d.value)), 1);
  return (
    <figure className="space-y-1">
      {typeof props.title === 'string' && <figcaption className="text-xs font-medium">{props.title}</figcaption>}
      {data.map((d, i) => (
        <div key={i} className="grid grid-cols-[8rem_1fr_4rem] items-center gap-2 text-xs">
          <span className="truncate text-zinc-600 dark:text-zinc-400" title={d.label}>
            {d.label}
          </span>
          <span className="h-3 rounded-sm bg-zinc-100 dark:bg-zinc-800">
            <span className="block h-3 rounded-sm bg-emerald-500" style={{ width: `${(Math.abs(d.value) / max) * 100}%` }} />
          </span>
          <span className="text-right font-mono tabular-nums">{d.value.toLocaleString()}</span>
        </div>
      ))}
    </figure>
  );
}

export const ObjectView = memo(function ObjectView({ component }: { component: ObjectComponent }) {
  const type = (component.type ?? 'json').toLowerCase();
  const props = component.props && typeof component.props === 'object' ? component.props : {};
  let body: React.ReactNode;
  if (type === 'table') body = <Table props={props} />;
  else if (type === 'chart' || type === 'bar' || type === 'bar-chart' || type === 'barchart') body = <BarChart props={props} />;
  else if (type === 'markdown' || type === 'text') {
    const source = cell(props.markdown ?? props.text ?? props.source ?? props.content ?? '');
    body =
      type === 'text' ? (
        <p className="text-sm whitespace-pre-wrap">{source}</p>
      ) : (
        <Markdown source={String(props.markdown ?? props.text ?? props.source ?? props.content ?? '').slice(0, 50_000)} />
      );
  } else body = <JsonView value={props} label={type} open />;
  return (
    <div data-testid="object-component" data-object-type={type} className="space-y-2 rounded-lg border border-sky-200 bg-sky-50/50 p-3 dark:border-sky-900 dark:bg-sky-950/30">
      <div className="flex items-center gap-2 text-xs text-sky-800 dark:text-sky-300">
        <span className="rounded bg-sky-100 px-1.5 py-0.5 font-medium dark:bg-sky-900">{type}</span>
        {component.tool && (
          <span className="font-mono">
            from {component.skill ? `${component.skill} · ` : ''}
            {component.tool}
          </span>
        )}
      </div>
      {body}
    </div>
  );
});
