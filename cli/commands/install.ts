// `skillyard install [--frozen]`: restores exactly the skills skillyard.lock records, each
// from its resolved URL, checked against the lock's integrity before anything is written.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { FetchError, fetchLocked, type FetchedPackage } from '../fetch-package';
import { entryTarget, LockError, lockPath, readLock, serializeLock, writeLock } from '../lockfile';
import { configDir, parsePackageRef } from '../registry-client';
import { permissionsOf } from '../skill-permissions';
import { styleFor } from '../style';
import { unpackInto, UnpackError } from '../unpack';

const usage = `Usage: skillyard install [--frozen] [--global]

Restore every skill in skillyard.lock: download each one's resolved URL, check it
against the lock's integrity and the registry's signed statement about it (docs/trust.md),
and unpack it into the lock's path (replacing what is there). Nothing is written unless
every download matches.

Options:
  --frozen           fail when the lock would change: no lock, or a locked version whose
                     declared permissions differ from what it now declares (CI)
  --global           the lock of \`add --global\` (~/.skillyard/skillyard.lock)
  --json             print the result as JSON

Yanked and deprecated versions are installed as locked, with a warning.
Exit status: 0 restored, 1 failed (integrity mismatch, download error, frozen lock
would change), 2 usage error.
`;

export const install: Command = {
  name: 'install',
  summary: 'restore exactly the skills in skillyard.lock (integrity checked)',
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { frozen: { type: 'boolean' }, global: { type: 'boolean' }, json: { type: 'boolean' } },
    });
    if (positionals.length) throw new UsageError('install takes no skill: it restores the lock (use `skillyard add @scope/name` to add one)');
    const s = styleFor(process.stdout);
    const say = (line: string) => values.json || process.stdout.write(line + '\n');
    const fail = (code: string, message: string) => {
      if (values.json) process.stdout.write(JSON.stringify({ ok: false, error: { code, message } }) + '\n');
      else process.stderr.write(`skillyard install: ${message}${message.includes(`[${code}]`) ? '' : ` [${code}]`}\n`);
      return 1;
    };
    const dir = values.global ? configDir() : process.cwd();
    let lock;
    try {
      lock = readLock(dir);
    } catch (e) {
      if (e instanceof LockError) return fail(e.code, e.message);
      throw e;
    }
    if (!lock) return fail('lock/missing', `no ${lockPath(dir)}: \`skillyard add @scope/name\` makes one`);
    const before = readFileSync(lockPath(dir), 'utf8');
    // every download checked first, then everything written: a mismatch changes nothing
    const fetched: Array<{ key: string; target: string; pkg: FetchedPackage }> = [];
    for (const [key, entry] of Object.entries(lock.skills)) {
      const ref = parsePackageRef(key)!;
      try {
        const pkg = await fetchLocked(entry.resolved, ref, entry.integrity, { warn: (line) => process.stderr.write(line + '\n') });
        if (pkg.version !== entry.version)
          return fail('install/version-mismatch', `${key}: the lock says ${entry.version}, ${entry.resolved} served ${pkg.version}; nothing was written`);
        fetched.push({ key, target: entryTarget(dir, entry), pkg });
      } catch (e) {
        if (e instanceof FetchError || e instanceof LockError) return fail(e.code, e.message);
        throw e;
      }
    }
    // the declared permissions come from the bytes: a lock that says otherwise was edited
    const changed = fetched.filter(({ key, pkg }) => JSON.stringify(permissionsOf(pkg.manifest)) !== JSON.stringify(lock.skills[key].permissions));
    if (changed.length) {
      const names = changed.map((c) => c.key).join(', ');
      if (values.frozen)
        return fail(
          'install/frozen',
          `the lock would change: the permissions it records for ${names} differ from what those versions declare; run \`skillyard install\` without --frozen`,
        );
      for (const c of changed) lock.skills[c.key].permissions = permissionsOf(c.pkg.manifest);
    }
    for (const { key, target, pkg } of fetched) {
      try {
        await unpackInto(target, pkg.files);
      } catch (e) {
        if (e instanceof UnpackError) return fail(e.code, `${key}: ${e.message}`);
        throw e;
      }
      if (pkg.yanked) say(`${s.yellow('yanked')} ${pkg.label} was yanked by its publisher; \`skillyard outdated\` shows the versions to move to`);
      if (pkg.deprecated) say(`${s.yellow('deprecated')} ${pkg.label}: ${pkg.deprecated}`);
      say(`${s.green('installed')} ${pkg.label} → ${lock.skills[key].path}`);
    }
    const after = serializeLock(lock);
    if (after !== before) {
      if (values.frozen) return fail('install/frozen', 'the lock would change (it is not in the canonical form `skillyard add` writes); run `skillyard install` without --frozen');
      writeLock(dir, lock);
      say(s.dim(`updated ${lockPath(dir)}`));
    }
    if (values.json) {
      process.stdout.write(
        JSON.stringify({
          ok: true,
          installed: fetched.map(({ key, pkg }) => ({ skill: key, version: pkg.version, integrity: pkg.integrity, yanked: pkg.yanked, deprecated: pkg.deprecated })),
        }) + '\n',
      );
    } else if (!fetched.length) say('the lock holds no skills');
    return 0;
  },
};
