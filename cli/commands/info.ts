// `skillyard info @scope/name[@version]`: a skill's details from the registry.
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command';
import { styleFor } from '../style';
import { parsePackageRef, registryClient, RegistryError } from '../registry-client';

const usage = `Usage: skillyard info @scope/name[@version-or-range] [--json]

Print a skill's description, tools, versions (yanked and deprecated marked), dist-tags,
downloads and the install command.
`;

type Detail = {
  scope: string;
  name: string;
  description: string;
  format: string;
  version: string;
  publishedAt: string;
  publishedBy: string | null;
  downloads: number;
  stars: number;
  integrity: string | null;
  deprecated: string | null;
  changelog: string | null;
  distTags: Record<string, string>;
  manifest: { tools: Array<{ name: string; description: string }> };
  versions: Array<{ version: string; createdAt: string; yanked: boolean; deprecated: string | null }>;
};

export const info: Command = {
  name: 'info',
  summary: "show a registry skill's details and versions",
  usage,
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { registry: { type: 'string' }, json: { type: 'boolean' } } });
    if (positionals.length !== 1) throw new UsageError('give one skill, like @scope/name');
    const ref = parsePackageRef(positionals[0]);
    if (!ref) throw new UsageError(`"${positionals[0]}" is not a skill reference like @scope/name[@version]`);
    const client = registryClient({ registry: values.registry });
    let d: Detail;
    try {
      d = await client.json<Detail>(`/api/v1/skills/${ref.scope}/${ref.name}${ref.spec ? `/${encodeURIComponent(ref.spec)}` : ''}`);
    } catch (e) {
      if (!(e instanceof RegistryError)) throw e;
      process.stderr.write(`skillyard info: ${e.message} [${e.code}]\n`);
      return 1;
    }
    if (values.json) {
      process.stdout.write(JSON.stringify(d, null, 2) + '\n');
      return 0;
    }
    const s = styleFor(process.stdout);
    const lines = [
      `${s.bold(`@${d.scope}/${d.name}@${d.version}`)} ${s.dim(`(${d.format})`)}`,
      d.description,
      ...(d.deprecated ? [s.yellow(`deprecated: ${d.deprecated}`)] : []),
      '',
      `published ${d.publishedAt.slice(0, 10)}${d.publishedBy ? ` by @${d.publishedBy}` : ''} · ${d.downloads} downloads · ${d.stars} stars`,
      `dist-tags: ${
        Object.entries(d.distTags)
          .map(([t, v]) => `${t}: ${v}`)
          .join(', ') || '(none)'
      }`,
      ...(d.manifest.tools.length ? ['', 'tools:', ...d.manifest.tools.map((t) => `  ${t.name}  ${s.dim(t.description.slice(0, 100))}`)] : []),
      '',
      'versions:',
      ...d.versions
        .slice(0, 20)
        .map((v) => `  ${v.version}${v.yanked ? s.red(' (yanked)') : ''}${v.deprecated ? s.yellow(' (deprecated)') : ''}  ${s.dim(v.createdAt.slice(0, 10))}`),
      ...(d.versions.length > 20 ? [s.dim(`  … ${d.versions.length - 20} more`)] : []),
      ...(d.changelog ? ['', `changes in ${d.version}:`, d.changelog] : []),
      '',
      `install: skillyard add @${d.scope}/${d.name}`,
      ...(d.integrity ? [s.dim(`integrity ${d.integrity}`)] : []),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};
