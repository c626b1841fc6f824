'use client';
// The install line of a skill with a copy button (the skill page and the publish page):
// `command` from addCommand (lib/mcp/client-config.ts), which works from any folder.
import { useState } from 'react';

export function InstallCommand({ scope, name, command: given }: { scope: string; name: string; command?: string }) {
  const command = given ?? `skillyard add @${scope}/${name}`;
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900" data-testid="install-command">
      <code className="min-w-0 flex-1 font-mono text-sm break-all">{command}</code>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(command);
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          } catch {
            setCopied(false);
          }
        }}
        className="shrink-0 rounded border border-zinc-300 px-2 py-0.5 text-xs hover:bg-white dark:border-zinc-700 dark:hover:bg-zinc-800"
        aria-label={`Copy: ${command}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
