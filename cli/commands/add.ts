// `skillyard add @scope/name[@version|tag|range] [--dir skills]`: downloads a version,
// checks its integrity (and its Rye signature where it has one), and unpacks it into
// <dir>/<name>/ where agents read skills.
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { FetchError, fetchPackage } from '../fetch-package';
import { styleFor } from '../style';
import { parsePackageRef } from '../registry-client';

const usage = `Usage: skillyard add @scope/name[@version-or-range] [--dir skills] [--force]

Download a skill from the registry and unpack it into <dir>/<name>/.
  @scope/name            the latest version
  @scope/name@1.2.3      an exact version (yanked versions too)
  @scope/name@^1.2       the highest version in a range (never a yanked one)
  @scope/name@next       a dist-tag

Options:
  --dir <dir>        where skills live (default: skills)
  --force            replace <dir>/<name> when it exists
  --keys <dir>       trust the Ed25519 public keys in <dir> for Rye signatures (repeatable)
  --registry <url>   the registry (default SKILLYARD_REGISTRY, the login's registry, or http://127.0.0.1:3000)
  --json             print the result as JSON

The download's sha512 integrity is checked before anything is written; a signed Rye
skill whose signature does not verify is refused. A deprecation message is printed.
Exit status: 0 added, 1 failed, 2 usage error.
`;

export const add: Command = {
  name: 'add',
  summary: 'download a skill from the registry into a skills folder',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        force: { type: 'boolean' },
        keys: { type: 'string', multiple: true },
        registry: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give one skill, like @scope/name or @scope/name@^1.0.0');
    const ref = parsePackageRef(positionals[0]);
    if (!ref) throw new UsageError(`"${positionals[0]}" is not a skill reference like @scope/name[@version]`);
    const s = styleFor(process.stdout);
    const say = (line: string) => values.json || process.stdout.write(line + '\n');
    const fail = (code: string, message: string) => {
      if (values.json) process.stdout.write(JSON.stringify({ ok: false, error: { code, message } }) + '\n');
      else process.stderr.write(`skillyard add: ${message}\n`);
      return 1;
    };
    let fetched;
    try {
      fetched = await fetchPackage(ref, { registry: values.registry, keys: values.keys, warn: (line) => process.stderr.write(line + '\n') });
    } catch (e) {
      if (e instanceof FetchError) return fail(e.code, e.message);
      throw e;
    }
    const { label, version, integrity, manifest, deprecated, files } = fetched;
    const pkg = { files };
    if (deprecated) say(`${s.yellow('deprecated')} ${label}: ${deprecated}`);
    if (fetched.yanked) say(`${s.yellow('yanked')} ${label} was yanked; it is installed because you named it exactly`);
    const dir = path.resolve(values.dir ?? 'skills');
    const target = path.join(dir, ref.name);
    if (existsSync(target)) {
      if (!values.force) return fail('add/exists', `${path.relative(process.cwd(), target) || target} exists; pass --force to replace it`);
      await fsp.rm(target, { recursive: true, force: true });
    }
    for (const f of pkg.files) {
      const dest = path.resolve(target, f.path);
      if (!dest.startsWith(target + path.sep)) return fail('add/unsafe-path', `${f.path} would be written outside ${target}`);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      await fsp.writeFile(dest, f.content, { flag: 'wx' });
    }
    const sig = manifest?.signature ? (manifest.signature.verified ? `, signature verified (key ${manifest.signature.keyId})` : `, signed by key ${manifest.signature.keyId} (not in your trusted keys)`) : '';
    if (values.json) {
      process.stdout.write(JSON.stringify({ ok: true, skill: `@${ref.scope}/${ref.name}`, version, integrity, dir: target, files: pkg.files.length, deprecated, signature: manifest?.signature ?? null }) + '\n');
    } else {
      say(`${s.green('added')} ${label} → ${path.relative(process.cwd(), target) || target} (${pkg.files.length} files${sig})`);
      say(s.dim(`  integrity ${integrity}`));
      const tool = manifest?.tools[0]?.name;
      if (tool) say(s.dim(`  try: skillyard run ${tool} --skill ${path.relative(process.cwd(), target) || target} --args '{}'`));
    }
    return 0;
  },
};
