// For those who may publish the skill: the CI publishers allowed to publish it with an
// OIDC token instead of a long-lived secret (docs/trust.md, "Trusted publishing").
import Link from 'next/link';
import type { TrustedPublisherView } from '@/lib/trusted-publishing';
import { AddTrustedPublisherForm, RemoveTrustedPublisherForm } from './trusted-publisher-forms';

export function TrustedPublishersPanel({ scope, name, publishers, defaultIssuer }: { scope: string; name: string; publishers: TrustedPublisherView[]; defaultIssuer: string }) {
  return (
    <section aria-labelledby="trusted-publishers-heading" className="space-y-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800" data-testid="trusted-publishers">
      <h2 id="trusted-publishers-heading" className="font-semibold">
        Trusted publishers
      </h2>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">
        A CI job whose OIDC token matches one of these publishes new versions without a stored secret; each version records its repository and commit.{' '}
        <Link href="/api-reference" className="underline">
          API
        </Link>
      </p>
      {publishers.length === 0 ? (
        <p className="text-xs text-zinc-700 dark:text-zinc-300">None yet.</p>
      ) : (
        <ul className="space-y-2 text-xs" data-testid="trusted-publisher-list">
          {publishers.map((p) => (
            <li key={p.id} className="space-y-0.5 break-all">
              <div className="font-mono">{p.issuer}</div>
              {Object.entries(p.claims).map(([k, v]) => (
                <div key={k}>
                  {k}: <span className="font-mono">{v}</span>
                </div>
              ))}
              <RemoveTrustedPublisherForm scope={scope} name={name} id={p.id} label={p.claims.repository ?? p.issuer} />
            </li>
          ))}
        </ul>
      )}
      <AddTrustedPublisherForm scope={scope} name={name} defaultIssuer={defaultIssuer} />
    </section>
  );
}
