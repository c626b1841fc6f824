// Where a version came from: the CI run of a trusted publisher (verified OIDC claims),
// with a link to the source commit; or a person's own publish.
import type { VersionTrust } from '@/lib/evidence';

export function ProvenanceSection({ trust }: { trust: VersionTrust }) {
  const p = trust.provenance;
  return (
    <section aria-labelledby="provenance-heading" className="space-y-3" data-testid="provenance-section">
      <h2 id="provenance-heading" className="text-lg font-semibold">
        Provenance
      </h2>
      {!p ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="provenance-none">
          Published by a person with an API token or on the web, not by a trusted publisher: nothing ties it to a source commit.
        </p>
      ) : (
        <dl className="grid grid-cols-1 gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]" data-testid="provenance-facts">
          <dt className="text-zinc-700 dark:text-zinc-300">Built from</dt>
          <dd className="font-mono break-all">{p.repository}</dd>
          <dt className="text-zinc-700 dark:text-zinc-300">Commit</dt>
          <dd className="font-mono break-all">
            {p.sourceUrl ? (
              <a href={p.sourceUrl} className="underline" rel="noopener noreferrer" data-testid="provenance-commit">
                {p.commit}
              </a>
            ) : (
              <span data-testid="provenance-commit">{p.commit}</span>
            )}
          </dd>
          <dt className="text-zinc-700 dark:text-zinc-300">Workflow</dt>
          <dd className="font-mono break-all">{p.workflow}</dd>
          {p.ref && (
            <>
              <dt className="text-zinc-700 dark:text-zinc-300">Ref</dt>
              <dd className="font-mono break-all">{p.ref}</dd>
            </>
          )}
          <dt className="text-zinc-700 dark:text-zinc-300">Verified by</dt>
          <dd className="break-all">
            an OIDC token of <span className="font-mono">{p.issuer}</span>
            {p.runUrl && (
              <>
                {' '}
                (
                <a href={p.runUrl} className="underline" rel="noopener noreferrer">
                  the CI run
                </a>
                )
              </>
            )}
          </dd>
        </dl>
      )}
    </section>
  );
}
