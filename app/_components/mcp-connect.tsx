'use client';
// The skill page's "Use from an MCP client": the skill's Streamable HTTP endpoint on this
// site and, in tabs, the snippet for each kind of client (Claude Code, Cursor, VS Code,
// Claude Desktop, a terminal), each with a copy button. See docs/mcp.md.
import Link from 'next/link';
import { useRef, useState } from 'react';
import type { McpClientConfig } from '@/lib/mcp';
import { CopyButton } from './copy-button';

type Tab = { id: string; label: string; title: string; hint: React.ReactNode; text: string };

const code = (t: string) => <code className="font-mono">{t}</code>;

function tabsFor(config: McpClientConfig): Tab[] {
  return [
    { id: 'mcp-claude-code', label: 'Claude Code', title: 'Claude Code command', hint: <>Run in a terminal; the server is added over HTTP.</>, text: config.claudeCodeCommand },
    {
      id: 'mcp-json',
      label: 'Cursor',
      title: 'JSON configuration',
      hint: (
        <>
          In {code('.cursor/mcp.json')} or Claude Code&apos;s {code('.mcp.json')}.
        </>
      ),
      text: config.httpJson,
    },
    {
      id: 'mcp-vscode',
      label: 'VS Code',
      title: 'VS Code configuration',
      hint: (
        <>
          In {code('.vscode/mcp.json')}: VS Code&apos;s own format ({code('"servers"')}
          {config.needsToken ? <>; it asks for the token once and keeps it out of the file</> : null}).
        </>
      ),
      text: config.vscodeJson,
    },
    {
      id: 'mcp-stdio-json',
      label: 'Claude Desktop',
      title: 'Claude Desktop configuration',
      hint: <>In {code('claude_desktop_config.json')}: needs only Node 20+; the tools run on your machine where isolated-vm is installed, else on this registry.</>,
      text: config.stdioJson,
    },
    { id: 'mcp-stdio', label: 'Terminal (stdio)', title: 'stdio server command', hint: <>Any MCP client that starts a local server over stdio.</>, text: config.stdioCommand },
  ];
}

export function McpConnect({ config }: { config: McpClientConfig }) {
  const tabs = tabsFor(config);
  const [active, setActive] = useState(tabs[0].id);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const move = (from: number, by: number) => {
    const next = tabs[(from + by + tabs.length) % tabs.length];
    setActive(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <section aria-labelledby="mcp-heading" className="space-y-3" data-testid="mcp-connect">
      <h2 id="mcp-heading" className="text-lg font-semibold">
        Use from an MCP client
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">This skill&apos;s tools are served over the Model Context Protocol (Streamable HTTP) at</p>
      <div className="flex min-w-0 items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900">
        <code className="min-w-0 flex-1 font-mono text-sm break-all" data-testid="mcp-url">
          {config.url}
        </code>
        <CopyButton text={config.url} label="server URL" testId="mcp-url-copy" />
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {config.needsToken ? (
          <>
            Replace {code('sy_YOUR_API_TOKEN')} with an API token with the {code('invoke')} scope (
            <Link href="/settings" className="underline underline-offset-2">
              Settings
            </Link>
            ): the tools run as you, with your connections.
          </>
        ) : (
          <>No token needed for its public tools; add {code('Authorization: Bearer <API token>')} to run them as you, with your connections.</>
        )}{' '}
        <Link href="/api-reference" className="underline underline-offset-2">
          More on the API
        </Link>
      </p>
      <div className="min-w-0 rounded-xl border border-zinc-200 dark:border-zinc-800">
        <div role="tablist" aria-label="MCP clients" className="flex overflow-x-auto border-b border-zinc-200 px-2 dark:border-zinc-800">
          {tabs.map((t, i) => (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[t.id] = el;
              }}
              type="button"
              role="tab"
              id={`${t.id}-tab`}
              aria-selected={active === t.id}
              aria-controls={`${t.id}-panel`}
              tabIndex={active === t.id ? 0 : -1}
              data-testid={`${t.id}-tab`}
              onClick={() => setActive(t.id)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight') move(i, 1);
                else if (e.key === 'ArrowLeft') move(i, -1);
              }}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm whitespace-nowrap ${
                active === t.id
                  ? 'border-emerald-700 font-medium text-zinc-900 dark:border-emerald-400 dark:text-white'
                  : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white'
              }`}
            >
              {t.label}
            </button>
          ))}
        </div>
        {tabs.map((t) => (
          <div key={t.id} role="tabpanel" id={`${t.id}-panel`} aria-labelledby={`${t.id}-tab`} hidden={active !== t.id} data-testid={t.id} className="min-w-0 space-y-2 p-3">
            <div className="flex items-start justify-between gap-2">
              <p className="min-w-0 text-xs text-zinc-600 dark:text-zinc-400">{t.hint}</p>
              <CopyButton text={t.text} label={t.title} testId={`${t.id}-copy`} />
            </div>
            <pre
              tabIndex={0}
              aria-label={t.title}
              // a one-line command wraps (nothing hidden on a phone); JSON keeps its lines and scrolls
              className={`overflow-x-auto rounded-lg bg-zinc-50 p-3 font-mono text-xs leading-relaxed dark:bg-zinc-900 ${t.text.includes('\n') ? '' : 'break-all whitespace-pre-wrap'}`}
            >
              <code data-testid={`${t.id}-text`}>{t.text}</code>
            </pre>
          </div>
        ))}
      </div>
    </section>
  );
}
