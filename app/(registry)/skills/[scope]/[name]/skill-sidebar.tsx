// The facts column of a skill page: version, dates, downloads, owner and author, license,
// source, signature and scan in words, and every version as a link.
import Link from 'next/link';
import type { SkillDetail } from '@/lib/registry';
import type { PackageFacts } from './package-facts';

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div data-testid={testId}>
      <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function signatureText(sig: NonNullable<SkillDetail['manifest']['signature']>): string {
  if (sig.verified === true) return 'Verified: signed by this key, and the content matches.';
  if (sig.verified === false) return `Invalid: the signature does not match the content${sig.reason ? ` (${sig.reason})` : ''}. Do not trust it.`;
  return `Not checked: this registry does not know the key that signed it, so it cannot tell who did${sig.reason ? ` (${sig.reason})` : ''}.`;
}

export function SkillSidebar({ skill, facts, base }: { skill: SkillDetail; facts: PackageFacts; base: string }) {
  const m = skill.manifest;
  const findings = Array.isArray(skill.findings) ? skill.findings : null;
  return (
    <aside className="min-w-0 space-y-6 text-sm" aria-label="About this skill">
      <dl className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
        <Fact label="Version">
          <span className="font-medium">{skill.version}</span>
        </Fact>
        <Fact label="Published">{skill.publishedAt.toISOString().slice(0, 10)}</Fact>
        <Fact label="Downloads">{skill.downloads.toLocaleString('en-US')}</Fact>
        <Fact label="Owner" testId="owner">
          <Link href={`/?q=${encodeURIComponent(skill.scope)}`} className="underline">
            @{skill.scope}
          </Link>
        </Fact>
        <Fact label="Author" testId="author">
          {facts.author ?? <span className="text-zinc-600 dark:text-zinc-400">not stated</span>}
        </Fact>
        <Fact label="License" testId="license">
          {facts.license ?? <span className="text-zinc-600 dark:text-zinc-400">not stated</span>}
        </Fact>
        <Fact label="Source" testId="source">
          {facts.source ? (
            <a href={facts.source} rel="nofollow noopener noreferrer" className="break-all underline">
              {facts.source.replace(/^https?:\/\//, '')}
            </a>
          ) : (
            <span className="text-zinc-600 dark:text-zinc-400">no link given</span>
          )}
        </Fact>
        {facts.homepage && (
          <Fact label="Homepage">
            <a href={facts.homepage} rel="nofollow noopener noreferrer" className="break-all underline">
              {facts.homepage.replace(/^https?:\/\//, '')}
            </a>
          </Fact>
        )}
        {m.allowedTools && (
          <Fact label="Allowed tools">
            <code className="font-mono text-xs break-all">{m.allowedTools}</code>
          </Fact>
        )}
        <Fact label="Signature" testId="signature">
          {m.signature ? (
            <>
              {signatureText(m.signature)} <code className="text-xs break-all">{m.signature.keyId}</code>
            </>
          ) : (
            'Unsigned.'
          )}
        </Fact>
        <Fact label="Security scan" testId="scan">
          {findings === null ? 'Not scanned.' : findings.length === 0 ? 'Scanned: clean, no findings.' : `Scanned: ${findings.length} ${findings.length === 1 ? 'finding' : 'findings'}, explained under Scan findings.`}
        </Fact>
        <Fact label="Content hash">
          <span className="block truncate font-mono text-xs" title={skill.contentHash}>
            {skill.contentHash.slice(0, 16)}…
          </span>
        </Fact>
      </dl>
    </aside>
  );
}
