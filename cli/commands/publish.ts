// `skillyard publish [path]`: reads the skill exactly as the registry will (same limits,
// same diagnostics), prints every diagnostic with file and line, refuses to upload a
// skill with errors, then uploads it as a .tar.gz and prints the version's URL.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readPackageFolder, type Diagnostic } from '../../lib/skills';
import { DiagnosticSink } from '../../lib/skills/diagnostic-sink';
import { walkDirectory } from '../../lib/skills/disk';
import { readUpload, uploadLimits, type UploadedPackage } from '../../lib/registry/read-upload';
import { packTarball } from '../../lib/registry/package-tarball';
import { isBlockingFinding, scanPackage } from '../../lib/registry/scan-package';
import { UsageError, type Command } from '../command';
import { styleFor } from '../style';
import { registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard publish [path] [--scope @you] [--tag next] [--version 1.2.3] [--visibility private] [--dry-run]

Publish the skill at <path> (default: the current folder; also a .skill.md/.skill.js/
.skill.ts file, or a .tar.gz/.zip archive) to the registry as a new immutable version.

Options:
  --scope <@scope>   the scope to publish into (default: your username)
  --tag <tag>        the dist-tag to point at this version (default latest; next for a prerelease)
  --version <semver> the version number, when the skill's metadata has none
  --visibility <v>   public (default for a new skill), unlisted (by link only) or private
                     (only you, or the team's members in a team scope)
  --dry-run          check everything (locally, and with the registry when signed in), store nothing
  --registry <url>   the registry (default SKILLYARD_REGISTRY, the login's registry, or http://127.0.0.1:3000)
  --json             print the result as JSON

The API token comes from SKILLYARD_TOKEN or from \`skillyard login\` and needs the
"publish" scope. A version number is never reused, even after a yank.
Exit status: 0 published (or the dry run passed), 1 refused, 2 usage error.
`;

type ServerPreview = { problems: Array<{ code: string; message: string }>; scope: string; name: string | null; version: string | null };

/** The upload as the registry reads it, from a folder, a skill file or an archive. */
async function readLocal(target: string): Promise<{ pkg: UploadedPackage; body: Uint8Array; fileName?: string }> {
  const stat = await fsp.lstat(target).catch(() => null);
  if (!stat) throw new UsageError(`${target}: no such file or folder`);
  if (stat.isSymbolicLink()) throw new UsageError(`${target} is a symbolic link; links are never followed`);
  if (stat.isFile()) {
    const bytes = new Uint8Array(await fsp.readFile(target));
    const fileName = path.basename(target);
    return { pkg: readUpload({ kind: 'bytes', bytes, fileName }), body: bytes, fileName };
  }
  const folder = path.basename(path.resolve(target));
  const limits = uploadLimits();
  // links are refused, not skipped: the walk records them without following them
  const sink = new DiagnosticSink();
  const walked = await walkDirectory(target, folder, limits, sink);
  const refused: Diagnostic[] = [...sink.list];
  for (const f of walked) {
    if (f.symlink) refused.push({ severity: 'error', code: 'path/symlink', message: `${f.path} is a symbolic link; links are not allowed in a package`, file: f.path });
  }
  const read = await readPackageFolder(target, { limits });
  refused.push(...read.diagnostics);
  if (refused.some((d) => d.severity === 'error')) {
    return { pkg: { files: [], manifest: null, diagnostics: refused, sizeBytes: 0 }, body: new Uint8Array() };
  }
  const pkg = readUpload({ kind: 'files', files: read.files.map((f) => ({ path: `${folder}/${f.path}`, content: f.content })), folderName: folder }, { limits });
  return { pkg, body: packTarball(pkg.files, folder) };
}

function printDiagnostics(diagnostics: Diagnostic[]): void {
  const s = styleFor(process.stdout);
  for (const d of diagnostics) {
    const where = d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ` : '';
    const sev = d.severity === 'error' ? s.red('error') : d.severity === 'warning' ? s.yellow('warning') : s.dim('note');
    process.stdout.write(`  ${where}${sev} ${d.message} ${s.dim(`[${d.code}]`)}\n`);
  }
}

export const publish: Command = {
  name: 'publish',
  summary: 'publish a skill to the registry as a new version',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        scope: { type: 'string' },
        tag: { type: 'string' },
        version: { type: 'string' },
        visibility: { type: 'string' },
        'dry-run': { type: 'boolean' },
        registry: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (positionals.length > 1) throw new UsageError('give one path');
    const target = positionals[0] ?? '.';
    const s = styleFor(process.stdout);
    const out = (line: string) => values.json || process.stdout.write(line + '\n');
    const { pkg, body, fileName } = await readLocal(target);
    const m = pkg.manifest;
    if (!values.json) {
      if (m) {
        const tools = m.tools.length ? ` — ${m.tools.length} tool${m.tools.length > 1 ? 's' : ''}: ${m.tools.map((t) => t.name).join(', ')}` : '';
        out(`${s.bold(m.name)} ${s.dim(`(${m.format}${m.version ? ` ${m.version}` : ''}, ${pkg.files.length} files, ${pkg.sizeBytes} bytes)`)}${tools}`);
      }
      printDiagnostics(pkg.diagnostics);
      // conformance decides publishing; which agents load it is for the author to know
      for (const a of m?.agents ?? [])
        if (!a.loads)
          out(
            `  ${s.yellow('will not load in')} ${a.label}: ${a.reasons
              .filter((r) => r.effect === 'blocks')
              .map((r) => r.message)
              .join('; ')} ${s.dim(`[${a.reasons[0]?.rule}]`)}`,
          );
    }
    const errors = pkg.diagnostics.filter((d) => d.severity === 'error');
    const blocking = scanPackage(pkg.files).filter(isBlockingFinding);
    for (const f of blocking) out(`  ${f.file}:${f.line}: ${s.red('error')} ${f.message}; remove it before publishing ${s.dim(`[${f.rule}]`)}`);
    if (!m || errors.length || blocking.length) {
      if (values.json) process.stdout.write(JSON.stringify({ ok: false, diagnostics: pkg.diagnostics, blocking }, null, 2) + '\n');
      else
        out(
          s.red(`not published: ${!m && errors.length === 0 ? 'no skill found' : `${errors.length + blocking.length} error${errors.length + blocking.length === 1 ? '' : 's'}`}`),
        );
      return 1;
    }
    const client = registryClient({ registry: values.registry });
    if (!client.token) {
      if (values['dry-run']) {
        out(s.green('dry run: the package is valid') + s.dim(' (not signed in: scope and version were not checked with the registry)'));
        return 0;
      }
      process.stderr.write('skillyard publish: not signed in: run `skillyard login` or set SKILLYARD_TOKEN (an API token with the "publish" scope)\n');
      return 1;
    }
    const q = new URLSearchParams();
    if (values.scope) q.set('scope', values.scope.replace(/^@/, ''));
    if (values.tag) q.set('tag', values.tag);
    if (values.version) q.set('version', values.version);
    if (values.visibility) {
      if (!['public', 'unlisted', 'private'].includes(values.visibility)) throw new UsageError('--visibility is public, unlisted or private');
      q.set('visibility', values.visibility);
    }
    if (fileName) q.set('filename', fileName);
    try {
      if (values['dry-run']) {
        q.set('dryRun', '1');
        const preview = await client.json<ServerPreview>(`/api/v1/skills?${q}`, { method: 'POST', body: Buffer.from(body), headers: { 'content-type': 'application/gzip' } });
        if (values.json) process.stdout.write(JSON.stringify(preview, null, 2) + '\n');
        for (const p of preview.problems) out(`  ${s.red('error')} ${p.message} ${s.dim(`[${p.code}]`)}`);
        if (preview.problems.length) return 1;
        out(s.green(`dry run: @${preview.scope}/${preview.name}@${preview.version} can be published`));
        return 0;
      }
      const res = await client.json<{ scope: string; name: string; version: string; tag: string; tagged: boolean; url: string; integrity: string }>(`/api/v1/skills?${q}`, {
        method: 'POST',
        body: Buffer.from(body),
        headers: { 'content-type': 'application/gzip' },
      });
      if (values.json) process.stdout.write(JSON.stringify({ ok: true, ...res }, null, 2) + '\n');
      out(`${s.green('published')} @${res.scope}/${res.name}@${res.version}${res.tagged ? ` (${res.tag})` : s.dim(` (not tagged ${res.tag}: a higher version has it)`)}`);
      // the page on the registry this CLI talks to (the server may see itself under another name)
      const page = new URL(res.url);
      out(`  ${client.base}${page.pathname}${page.search}`);
      out(s.dim(`  integrity ${res.integrity}`));
      return 0;
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      if (values.json) process.stdout.write(JSON.stringify({ ok: false, error: { code: e.code, message: e.message } }, null, 2) + '\n');
      else process.stderr.write(`skillyard publish: ${e.message} [${e.code}]\n`);
      return 1;
    }
  },
};
