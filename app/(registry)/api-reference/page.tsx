import type { Metadata } from 'next';
import { openApiDocument } from '@/lib/api';
import { describeParams } from '@/lib/forms';

// Rendered per request, never prerendered: the Content-Security-Policy (proxy.ts) carries a
// fresh nonce each time and Next.js stamps it on its scripts only while rendering; a static
// page would keep a stale nonce and its scripts would be refused.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'API reference',
  description: 'The Skillyard HTTP API: registry tools and playground runs, rendered from its OpenAPI document.',
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const METHOD_STYLES: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  post: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  delete: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
};

function bodySchema(op: Obj): Obj | null {
  const body = isObj(op.requestBody) ? op.requestBody : null;
  const content = body && isObj(body.content) ? body.content : null;
  const json = content && isObj(content['application/json']) ? (content['application/json'] as Obj) : null;
  return json && isObj(json.schema) ? json.schema : null;
}

const anchor = (method: string, path: string) => `${method}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

function Operation({ method, path, op }: { method: string; path: string; op: Obj }) {
  const params = Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [];
  const body = bodySchema(op);
  const fields = describeParams(body);
  const responses = isObj(op.responses) ? Object.entries(op.responses) : [];
  return (
    <section id={anchor(method, path)} data-testid="api-operation" className="min-w-0 scroll-mt-4 space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
      <h3 className="flex min-w-0 flex-wrap items-center gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_STYLES[method] ?? 'bg-zinc-100 dark:bg-zinc-800'}`}>{method}</span>
        <code className="font-mono text-sm break-all">{path}</code>
      </h3>
      {typeof op.summary === 'string' && <p className="text-sm text-zinc-700 dark:text-zinc-300">{op.summary}</p>}
      {params.length > 0 && (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Parameters of ${method.toUpperCase()} ${path}`}>
          <table className="w-full min-w-[24rem] text-left text-xs">
            <caption className="sr-only">Parameters</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Parameter
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  In
                </th>
                <th scope="col" className="py-1 font-medium">
                  Description
                </th>
              </tr>
            </thead>
            <tbody>
              {params.map((p, i) => (
                <tr key={i} className="border-t border-zinc-100 align-top dark:border-zinc-900">
                  <td className="py-1 pr-3 font-mono">
                    {String(p.name)}
                    {p.required === true && <span className="ml-1 font-sans text-red-700 dark:text-red-400">required</span>}
                  </td>
                  <td className="py-1 pr-3">{String(p.in)}</td>
                  <td className="py-1 text-zinc-700 dark:text-zinc-300">{typeof p.description === 'string' ? p.description : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {fields.length > 0 && (
        <div className="space-y-1">
          <h4 className="text-xs font-semibold">JSON body</h4>
          <ul className="space-y-0.5 text-xs">
            {fields.map((f) => (
              <li key={f.name} className="break-words">
                <code className="font-mono">{f.name}</code>
                {f.required && <span className="ml-1 text-red-700 dark:text-red-400">required</span>} <span className="font-mono text-sky-800 dark:text-sky-300">{f.type}</span>
                {f.description && <span className="text-zinc-700 dark:text-zinc-300"> — {f.description}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {responses.length > 0 && (
        <p className="text-xs text-zinc-700 dark:text-zinc-300">
          Responses:{' '}
          {responses.map(([code, r], i) => (
            <span key={code}>
              {i > 0 && ', '}
              <code className="font-mono">{code}</code>
              {isObj(r) && typeof r.description === 'string' && r.description !== 'An error' ? ` ${r.description}` : ''}
            </span>
          ))}
        </p>
      )}
    </section>
  );
}

/** `code` spans of a description as <code>; the rest as text. */
function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 2 ? (
          <code key={i} className="font-mono text-[0.9em]">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** A path that may wrap after each `/` (never inside a segment). */
function WrappingPath({ path }: { path: string }) {
  return (
    <>
      {path.split('/').map((seg, i) => (
        <span key={i}>
          {i > 0 && '/'}
          {i > 0 && <wbr />}
          {seg}
        </span>
      ))}
    </>
  );
}

function EndpointLinks({ ops }: { ops: Array<{ method: string; path: string }> }) {
  return (
    <ul className="space-y-1">
      {ops.map(({ method, path }) => (
        <li key={`${method} ${path}`}>
          <a href={`#${anchor(method, path)}`} className="underline-offset-2 hover:underline">
            <span className="font-mono font-semibold uppercase">{method}</span> <WrappingPath path={path} />
          </a>
        </li>
      ))}
    </ul>
  );
}

export default function ApiReferencePage() {
  const doc = openApiDocument as unknown as Obj;
  const info = isObj(doc.info) ? doc.info : {};
  const paths = isObj(doc.paths) ? Object.entries(doc.paths).filter(([, v]) => isObj(v)) : [];
  const ops = paths.flatMap(([path, item]) => METHODS.filter((m) => isObj((item as Obj)[m])).map((m) => ({ method: m, path, op: (item as Obj)[m] as Obj })));
  return (
    <div className="min-w-0 space-y-8">
      <header className="max-w-3xl space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{typeof info.title === 'string' ? info.title : 'API'} reference</h1>
        {typeof info.description === 'string' && (
          <p className="text-zinc-700 dark:text-zinc-300">
            <InlineCode text={info.description} />
          </p>
        )}
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Authenticate with <code className="font-mono">Authorization: Bearer sy_…</code> where an endpoint needs it. The machine-readable document is at{' '}
          <a href="/api/v1/openapi.json" className="font-mono underline">
            /api/v1/openapi.json
          </a>{' '}
          (OpenAPI {String(doc.openapi ?? '')}). Every skill&apos;s tools are also served over MCP (Streamable HTTP) at{' '}
          <code className="font-mono">/api/mcp/&lt;scope&gt;/&lt;name&gt;</code>: each skill page shows how to add it to a client.
        </p>
      </header>
      <div className="grid min-w-0 grid-cols-1 gap-8 lg:grid-cols-[15rem_minmax(0,1fr)]">
        {/* on a narrow screen the endpoint list folds away instead of standing before the content */}
        <details className="rounded-lg border border-zinc-200 p-3 text-sm lg:hidden dark:border-zinc-800">
          <summary className="cursor-pointer font-medium">Jump to an endpoint ({ops.length})</summary>
          <nav aria-label="Endpoints" className="mt-3 text-xs">
            <EndpointLinks ops={ops} />
          </nav>
        </details>
        <nav aria-label="Endpoints" className="hidden min-w-0 text-xs lg:sticky lg:top-4 lg:block lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
          <EndpointLinks ops={ops} />
        </nav>
        <div className="min-w-0 space-y-6">
          <h2 className="text-lg font-semibold">Endpoints ({ops.length})</h2>
          {ops.map(({ method, path, op }) => (
            <Operation key={`${method} ${path}`} method={method} path={path} op={op} />
          ))}
        </div>
      </div>
    </div>
  );
}
