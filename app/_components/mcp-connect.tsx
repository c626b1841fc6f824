// The skill page's "Use from an MCP client": the skill's Streamable HTTP endpoint on this
// site and the snippets for Claude Code, Cursor/VS Code (.mcp.json) and Claude Desktop
// (the local stdio server), each with a copy button. See docs/mcp.md.
import Link from 'next/link';
import type { McpClientConfig } from '@/lib/mcp/client-config';
import { CopyButton } from './copy-button';

function Snippet({ title, hint, text, testId }: { title: string; hint?: React.ReactNode; text: string; testId: string }) {
  return (
    <div className="min-w-0 space-y-1" data-testid={testId}>
      <div className="flex items-end justify-between gap-2">
        <div className="min-w-0">
          <h3 className="text-sm font-medium">{title}</h3>
          {hint && <p className="text-xs text-zinc-600 dark:text-zinc-400">{hint}</p>}
        </div>
        <CopyButton text={text} label={title} testId={`${testId}-copy`} />
      </div>
      <pre
        tabIndex={0}
        aria-label={title}
        className="overflow-x-auto rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed dark:border-zinc-800 dark:bg-zinc-900"
      >
        <code data-testid={`${testId}-text`}>{text}</code>
      </pre>
    </div>
  );
}

export function McpConnect({ config }: { config: McpClientConfig }) {
  return (
    <section aria-labelledby="mcp-heading" className="space-y-4" data-testid="mcp-connect">
      <div className="space-y-1">
        <h2 id="mcp-heading" className="text-lg font-semibold">
          Use from an MCP client
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This skill&apos;s tools are served over the Model Context Protocol (Streamable HTTP) at
        </p>
        <div className="flex min-w-0 items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900">
          <code className="min-w-0 flex-1 font-mono text-sm break-all" data-testid="mcp-url">
            {config.url}
          </code>
          <CopyButton text={config.url} label="server URL" testId="mcp-url-copy" />
        </div>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {config.needsToken ? (
            <>
              Replace <code className="font-mono">sy_YOUR_API_TOKEN</code> with an API token with the <code className="font-mono">invoke</code> scope (
              <Link href="/settings" className="underline underline-offset-2">
                Settings
              </Link>
              ): the tools run as you, with your connections.
            </>
          ) : (
            <>
              No token needed for its public tools; add <code className="font-mono">Authorization: Bearer &lt;API token&gt;</code> to run them as you, with your
              connections.
            </>
          )}{' '}
          <Link href="/api-reference" className="underline underline-offset-2">
            More on the API
          </Link>
        </p>
      </div>
      <Snippet title="Claude Code" text={config.claudeCodeCommand} testId="mcp-claude-code" />
      <Snippet
        title="Cursor, Claude Code, VS Code (JSON)"
        hint={
          <>
            <code className="font-mono">.cursor/mcp.json</code> or <code className="font-mono">.mcp.json</code>; VS Code reads the same entry under{' '}
            <code className="font-mono">&quot;servers&quot;</code> in <code className="font-mono">.vscode/mcp.json</code>.
          </>
        }
        text={config.httpJson}
        testId="mcp-json"
      />
      <Snippet
        title="Claude Desktop and other stdio clients"
        hint={
          <>
            <code className="font-mono">claude_desktop_config.json</code>: the skill is downloaded (integrity checked) and its tools run on your machine.
          </>
        }
        text={config.stdioJson}
        testId="mcp-stdio-json"
      />
      <Snippet title="Local stdio server" text={config.stdioCommand} testId="mcp-stdio" />
    </section>
  );
}
