// `skillyard mcp` serving skills on this machine: registry skills downloaded and checked,
// local folders read, every tool run through the kernel in isolated-vm. Loaded only when
// isolated-vm loads (cli/commands/mcp.ts decides), since this module imports it.
import { existsSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalRuntime, isolatesInProcess } from './local-runtime';
import { localToolHost, serveMcpOverStdio } from '../lib/mcp';
import { fetchPackage } from './fetch-package';
import { parsePackageRef } from './registry-client';
import { loadSkills } from './commands/run';

export type LocalMcpOptions = { skill: string[]; registry?: string; scope?: string; allowSubprocess: boolean; env: Record<string, string> };

/** Serves until the client closes the session; 0, or 2 when a skill cannot be read. */
export async function serveLocalOverStdio(values: LocalMcpOptions): Promise<number> {
  let skills;
  let downloads: string | null = null;
  try {
    const paths: string[] = [];
    let refScope: string | null = null;
    for (const value of values.skill) {
      const ref = value.startsWith('@') && !existsSync(value) ? parsePackageRef(value) : null;
      if (!ref) {
        paths.push(value);
        continue;
      }
      downloads ??= await fsp.mkdtemp(path.join(os.tmpdir(), 'skillyard-mcp-'));
      const pkg = await fetchPackage(ref, { registry: values.registry, warn: (line) => process.stderr.write(line + '\n') });
      if (pkg.deprecated) process.stderr.write(`skillyard mcp: ${pkg.label} is deprecated: ${pkg.deprecated}\n`);
      const target = path.join(downloads, ref.scope, ref.name);
      for (const f of pkg.files) {
        const dest = path.resolve(target, f.path);
        if (!dest.startsWith(target + path.sep)) throw new Error(`${pkg.label}: ${f.path} would be written outside its folder`);
        await fsp.mkdir(path.dirname(dest), { recursive: true });
        await fsp.writeFile(dest, f.content);
      }
      refScope ??= ref.scope;
      paths.push(target);
      process.stderr.write(`skillyard mcp: fetched ${pkg.label} (${pkg.integrity})\n`);
    }
    skills = await loadSkills(paths, values.scope?.replace(/^@/, '') ?? refScope);
  } catch (e) {
    process.stderr.write(`skillyard mcp: cannot read skill: ${(e as Error).message}\n`);
    if (downloads) await fsp.rm(downloads, { recursive: true, force: true });
    return 2;
  }
  const { manager, sandbox } = createLocalRuntime({
    skills,
    caller: { id: 'local', kind: 'user', tokens: [] },
    inProcess: isolatesInProcess(),
    workers: 1,
    allowSubprocess: values.allowSubprocess,
    workDir: process.cwd(),
    env: values.env,
  });
  const { closed } = await serveMcpOverStdio(localToolHost(skills, manager));
  process.stderr.write(`skillyard mcp: serving ${skills.map((s) => s.manifest.name).join(', ')} over stdio\n`);
  await closed;
  await sandbox.close();
  if (downloads) await fsp.rm(downloads, { recursive: true, force: true });
  return 0;
}
