// `skillyard verify @scope/name@version`: checks the registry's signed statement about a
// version (docs/trust.md) — the signature with a key of the registry's key set that is not
// revoked, that it names this version, and that the package's bytes are the signed digest
// — and prints what it vouches for. Files given with --keys, --statement and --tarball are
// used instead of fetching them; with all three (or --offline and the cached key set) it
// needs no network.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { isKeySet, permissionFacts, verifyStatement, type KeySet } from '../../lib/trust';
import { tarballUrl } from '../fetch-package';
import { parsePackageRef, registryClient, RegistryError } from '../registry-client';
import { fetchStatement, keyCachePath, readCachedKeys, registryKeys } from '../statement-check';
import { styleFor } from '../style';
import { checkStatementParts } from '../../lib/evidence/statement-parts';
import type { Evidence } from '../../lib/evidence/types';

/** The evidence itself from what GET .../evidence serves (or the bare evidence). */
function evidenceOf(body: unknown): Evidence | null {
  const b = body as { evidence?: { result?: Evidence | null }; tools?: unknown };
  if (b && Array.isArray(b.tools)) return body as Evidence;
  return b?.evidence?.result ?? null;
}

const usage = `Usage: skillyard verify @scope/name@version [--keys file] [--statement file] [--tarball file] [--evidence file]
                        [--repository owner/name] [--workflow ref] [--offline] [--json]

Check the registry's signed statement about a version: its Ed25519 signature (with a key
of the registry's /.well-known/skillyard-keys.json that is not revoked), that it is about
this name and version, and that the package's sha512 is the one it signs. Then print what
the statement vouches for: the permissions, the scan verdict, what the code did when the
registry ran its examples at publish (the evidence the registry serves must be the signed
one) and, for a version a CI published by trusted publishing, its repository and commit.

Options:
  --keys <file>       the key set to trust (default: fetched from the registry once, and
                      kept in ~/.skillyard/trust/<host>.json)
  --offline           use the kept key set; fetch nothing else unless a file is missing
  --statement <file>  the statement (its compact JWS, or the JSON the registry serves)
  --tarball <file>    the package (.tar.gz) to check (default: downloaded)
  --evidence <file>   the evidence to check against the signed digest (the JSON of
                      GET .../evidence; default: fetched, unless --offline)
  --repository <r>    require the signed provenance's repository to be <r>
  --workflow <w>      require the signed provenance's workflow to be <w>
  --registry <url>    the registry
  --json              print the result as JSON

Exit status: 0 verified, 1 not verified (or could not be checked), 2 usage error.
`;

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the ${what} ${file}: ${(e as Error).message}`);
  }
}

export const verify: Command = {
  name: 'verify',
  summary: "check a version's signed statement and package digest",
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        keys: { type: 'string' },
        statement: { type: 'string' },
        tarball: { type: 'string' },
        offline: { type: 'boolean' },
        registry: { type: 'string' },
        json: { type: 'boolean' },
        evidence: { type: 'string' },
        repository: { type: 'string' },
        workflow: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('verify takes one @scope/name@version');
    const ref = parsePackageRef(positionals[0]);
    if (!ref || !ref.spec || !/^\d+\.\d+\.\d+(?:[-+].*)?$/.test(ref.spec)) throw new UsageError(`"${positionals[0]}" is not @scope/name@<exact version>`);
    const version = ref.spec;
    const name = `@${ref.scope}/${ref.name}`;
    const s = styleFor(process.stdout);
    const client = registryClient({ registry: values.registry });
    const fail = (code: string, message: string) => {
      if (values.json) process.stdout.write(JSON.stringify({ ok: false, error: { code, message } }) + '\n');
      else process.stderr.write(`skillyard verify: ${name}@${version}: ${message} [${code}]\n`);
      return 1;
    };
    try {
      let keys: KeySet | null;
      if (values.keys) {
        const data = JSON.parse(readText(values.keys, 'key set')) as unknown;
        if (!isKeySet(data)) return fail('statement/bad-key-set', `${values.keys} is not a key set`);
        keys = data;
      } else if (values.offline) {
        keys = readCachedKeys(client.base);
        if (!keys) return fail('statement/no-keys', `no kept key set at ${keyCachePath(client.base)}; run once without --offline`);
      } else keys = await registryKeys(client);
      if (!keys) return fail('statement/no-keys', `${client.base} serves no signing keys`);

      let jws: string | null;
      if (values.statement) {
        const text = readText(values.statement, 'statement').trim();
        jws = text.startsWith('{') ? ((JSON.parse(text) as { jws?: string }).jws ?? null) : text;
      } else jws = await fetchStatement(client, ref, version);
      if (!jws) return fail('statement/none', `${client.base} serves no statement for it`);

      const tarball = values.tarball
        ? new Uint8Array(readFileSync(values.tarball))
        : new Uint8Array(await (await client.request(new URL(tarballUrl(client.base, ref, version)).pathname)).arrayBuffer());

      const r = verifyStatement(jws, keys, { name, version, tarball });
      if (!r.ok) return fail(r.code, r.reason);
      const facts = permissionFacts(r.payload.permissions);
      // issue 30: the served evidence is the signed one; the provenance is the one asked for
      let evidence: Evidence | null = null;
      if (values.evidence) evidence = evidenceOf(JSON.parse(readText(values.evidence, 'evidence')));
      else if (!values.offline && r.payload.evidence) {
        evidence = evidenceOf(await client.json(`/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(version)}/evidence`));
      }
      const parts = checkStatementParts(r.payload, { evidence, repository: values.repository, workflow: values.workflow });
      if (!parts.ok) {
        const why = parts.failures[0];
        return fail(why.startsWith('evidence') ? 'statement/evidence-mismatch' : 'statement/provenance-mismatch', why);
      }
      if (values.json) {
        process.stdout.write(JSON.stringify({ ok: true, key: r.key.kid, keyStatus: r.key.status, statement: r.payload, checks: parts.lines }) + '\n');
        return 0;
      }
      const out = (line: string) => process.stdout.write(line + '\n');
      out(`${s.green('verified')} ${name}@${version}`);
      out(`  signed by ${r.key.kid} (${r.key.status}) at ${r.payload.issuedAt}`);
      out(`  package ${r.payload.subject.packageDigest.slice(0, 30)}… matches`);
      out(`  manifest ${r.payload.subject.manifestDigest.slice(0, 30)}…`);
      out(`  scan: ${r.payload.scan.verdict}${r.payload.scan.findings ? ` (${r.payload.scan.findings} findings: ${r.payload.scan.rules.join(', ')})` : ''}`);
      out(facts.length ? '  it may:' : '  it declares no permissions');
      for (const f of facts) out(`    ${f.words}`);
      for (const line of parts.lines) out(`  ${line}`);
      return 0;
    } catch (e) {
      if (e instanceof RegistryError) return fail(e.code, e.message);
      if (e instanceof SyntaxError) return fail('statement/malformed', e.message);
      throw e;
    }
  },
};
