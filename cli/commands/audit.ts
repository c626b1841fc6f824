// `skillyard audit`: asks the registry about each version in skillyard.lock and lists
// the ones that were yanked or deprecated since, or that its scan flagged.
import { parseArgs } from 'node:util';
import { type Command } from '../command';
import { readLockFor } from '../lockfile';
import { configDir, parsePackageRef, registryClient, RegistryError } from '../registry-client';
import { registryOf } from '../skill-versions';
import { styleFor } from '../style';

const usage = `Usage: skillyard audit [--global] [--json]

For each skill in skillyard.lock, ask its registry whether the locked version was
yanked or deprecated, and what its publish-time scan found (warnings and dangers).
Exit status: 0 nothing found, 1 something found (or the registry could not be asked).
`;

type Finding = { rule: string; severity: 'info' | 'warning' | 'danger'; message: string; file: string; line: number };
type Detail = { version: string; yanked: boolean; deprecated: string | null; findings?: Finding[] };

export const audit: Command = {
  name: 'audit',
  summary: 'list locked versions that are yanked, deprecated or flagged by the scan',
  usage,
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { global: { type: 'boolean' }, json: { type: 'boolean' } } });
    const dir = values.global ? configDir() : process.cwd();
    const lock = readLockFor('audit', dir);
    if (!lock) return 1;
    const reports: Array<{ skill: string; version: string; yanked: boolean; deprecated: string | null; findings: Finding[] }> = [];
    for (const [key, entry] of Object.entries(lock.skills)) {
      const ref = parsePackageRef(key)!;
      try {
        const d = await registryClient({ registry: registryOf(entry.resolved) }).json<Detail>(`/api/v1/skills/${ref.scope}/${ref.name}/${encodeURIComponent(entry.version)}`);
        const findings = (d.findings ?? []).filter((f) => f.severity !== 'info');
        if (d.yanked || d.deprecated || findings.length) reports.push({ skill: key, version: entry.version, yanked: d.yanked, deprecated: d.deprecated, findings });
      } catch (e) {
        if (!(e instanceof RegistryError)) throw e;
        process.stderr.write(`skillyard audit: ${key}@${entry.version}: ${e.message} [${e.code}]\n`);
        return 1;
      }
    }
    if (values.json) process.stdout.write(JSON.stringify({ ok: reports.length === 0, reports }) + '\n');
    else {
      const s = styleFor(process.stdout);
      for (const r of reports) {
        process.stdout.write(`${s.bold(`${r.skill}@${r.version}`)}\n`);
        if (r.yanked) process.stdout.write(`  ${s.red('yanked')}: move to another version (\`skillyard outdated\`)\n`);
        if (r.deprecated) process.stdout.write(`  ${s.yellow('deprecated')}: ${r.deprecated}\n`);
        for (const f of r.findings) process.stdout.write(`  ${f.severity === 'danger' ? s.red(f.severity) : s.yellow(f.severity)} ${f.file}:${f.line}: ${f.message} [${f.rule}]\n`);
      }
      process.stdout.write(
        reports.length
          ? `${reports.length} of ${Object.keys(lock.skills).length} locked skills need attention\n`
          : `${Object.keys(lock.skills).length} locked skills: nothing found\n`,
      );
    }
    return reports.length ? 1 : 0;
  },
};
