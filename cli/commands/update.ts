// `skillyard update [@scope/name...] [--yes]`: moves locked skills to the highest version
// their range allows, printing first what changes in each one's permissions
// (capabilities, network hosts, tokens, subprocess). A change that widens them is applied
// only with --yes; the others are applied at once.
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { FetchError, fetchPackage } from '../fetch-package';
import { entryTarget, LockError, readLockFor, writeLock } from '../lockfile';
import { configDir, parsePackageRef, registryClient, RegistryError } from '../registry-client';
import { permissionChange } from '../permission-change';
import { permissionsOf } from '../skill-permissions';
import { candidates, registryOf } from '../skill-versions';
import { styleFor } from '../style';
import { unpackInto } from '../unpack';

const usage = `Usage: skillyard update [@scope/name...] [--yes] [--dry-run] [--global]

Move each locked skill (or the ones named) to the highest version its range in
skillyard.lock allows. Before applying, print what changes in what the skill may do,
in the registry's words (docs/trust.md), e.g.
  + network access to api.example.com
  + uses your github account connection (@oauth/github)
  + runs bash scripts as subprocesses on the server
  - keeps data between calls (storage)
An update that adds anything (widens) is applied only with --yes. Each download is
checked against the registry's signed statement first.

Options:
  --yes              apply updates that widen permissions too
  --dry-run          print the changes, apply nothing
  --global           the lock of \`add --global\`
Yanked versions are never chosen; deprecated ones warn.
Exit status: 0 up to date or updated, 1 an update was held back (widening without
--yes) or failed, 2 usage error.
`;

export const update: Command = {
  name: 'update',
  summary: 'update locked skills within their ranges, showing permission changes first',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { yes: { type: 'boolean', short: 'y' }, 'dry-run': { type: 'boolean' }, global: { type: 'boolean' } },
    });
    const dir = values.global ? configDir() : process.cwd();
    const s = styleFor(process.stdout);
    const out = (line: string) => process.stdout.write(line + '\n');
    const lock = readLockFor('update', dir);
    if (!lock) return 1;
    const names = positionals.map((p) => {
      const ref = parsePackageRef(p);
      if (!ref || ref.spec) throw new UsageError(`"${p}" is not a locked skill name like @scope/name`);
      const key = `@${ref.scope}/${ref.name}`;
      if (!lock.skills[key]) throw new UsageError(`${key} is not in skillyard.lock`);
      return key;
    });
    let heldBack = 0;
    let applied = 0;
    for (const [key, entry] of Object.entries(lock.skills)) {
      if (names.length && !names.includes(key)) continue;
      const ref = parsePackageRef(key)!;
      const registry = registryOf(entry.resolved);
      try {
        const { wanted } = await candidates(ref, entry.range, registry);
        if (!wanted || wanted === entry.version) continue;
        const pkg = await fetchPackage({ ...ref, spec: wanted }, { registry, warn: (line) => process.stderr.write(line + '\n') });
        const next = permissionsOf(pkg.manifest);
        const { lines, widens } = await permissionChange(registryClient({ registry }), ref, entry, { version: pkg.version, manifest: pkg.manifest });
        out(`${s.bold(key)} ${entry.version} → ${wanted}`);
        if (pkg.deprecated) out(`  ${s.yellow('deprecated')}: ${pkg.deprecated}`);
        if (lines.length) {
          out(`  permissions${widens ? s.yellow(' (widened)') : ''}:`);
          for (const line of lines) out(`    ${line.startsWith('+ ') ? s.yellow(line) : line}`);
        } else out(s.dim('  permissions unchanged'));
        if (values['dry-run']) continue;
        if (widens && !values.yes) {
          heldBack++;
          out(`  ${s.yellow('held back')}: it asks for more than ${entry.version} did; run \`skillyard update ${key} --yes\` to accept`);
          continue;
        }
        await unpackInto(entryTarget(dir, entry), pkg.files);
        lock.skills[key] = { ...entry, version: pkg.version, resolved: pkg.resolved, integrity: pkg.integrity, permissions: next };
        writeLock(dir, lock);
        applied++;
        out(`  ${s.green('updated')} → ${entry.path}`);
      } catch (e) {
        if (e instanceof FetchError || e instanceof RegistryError || e instanceof LockError) {
          process.stderr.write(`skillyard update: ${key}: ${e.message}\n`);
          return 1;
        }
        throw e;
      }
    }
    if (!applied && !heldBack && !values['dry-run']) out('every locked skill is at the highest version its range allows');
    return heldBack ? 1 : 0;
  },
};
