// `skillyard outdated`: for each skill in skillyard.lock, the version installed, the
// highest one its range allows (what `update` would install) and the registry's latest.
import { parseArgs } from 'node:util';
import { type Command } from '../command';
import { readLockFor } from '../lockfile';
import { configDir, parsePackageRef, RegistryError } from '../registry-client';
import { candidates, registryOf } from '../skill-versions';
import { styleFor } from '../style';

const usage = `Usage: skillyard outdated [--global] [--json]

List the skills in skillyard.lock that have a newer version: "wanted" is the highest
version the lock's range allows (what \`skillyard update\` installs), "latest" the
registry's latest tag. Exit status: 0 all current, 1 some are outdated or the registry
could not be asked, 2 usage error.
`;

export const outdated: Command = {
  name: 'outdated',
  summary: 'list locked skills with newer versions',
  usage,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { global: { type: 'boolean' }, json: { type: 'boolean' } } });
    const dir = values.global ? configDir() : process.cwd();
    const lock = readLockFor('outdated', dir);
    if (!lock) return 1;
    const rows: Array<{ skill: string; current: string; wanted: string | null; latest: string | null; range: string }> = [];
    for (const [key, entry] of Object.entries(lock.skills)) {
      try {
        const c = await candidates(parsePackageRef(key)!, entry.range, registryOf(entry.resolved));
        if (c.wanted !== entry.version || (c.latest && c.latest !== entry.version)) rows.push({ skill: key, current: entry.version, range: entry.range, ...c });
      } catch (e) {
        if (!(e instanceof RegistryError)) throw e;
        process.stderr.write(`skillyard outdated: ${key}: ${e.message} [${e.code}]\n`);
        return 1;
      }
    }
    if (values.json) process.stdout.write(JSON.stringify({ outdated: rows }) + '\n');
    else if (!rows.length) process.stdout.write('every locked skill is current\n');
    else {
      const s = styleFor(process.stdout);
      const w = Math.max(5, ...rows.map((r) => r.skill.length));
      process.stdout.write(`${'skill'.padEnd(w)}  current   wanted    latest    range\n`);
      for (const r of rows) {
        process.stdout.write(`${r.skill.padEnd(w)}  ${r.current.padEnd(8)}  ${s.green((r.wanted ?? '-').padEnd(8))}  ${(r.latest ?? '-').padEnd(8)}  ${s.dim(r.range)}\n`);
      }
    }
    return rows.length ? 1 : 0;
  },
};
