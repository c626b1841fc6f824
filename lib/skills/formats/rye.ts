// Rye OS tools under .ai/tools/**: Python (dunder metadata + CONFIG_SCHEMA +
// execute, or a `# ryeos-tool:` header), YAML (tool_id or name, parameters list,
// input_schema/config_schema, MCP tool and server defs), JS/TS
// (`export const __dunder__`) and bash (`.sh`). Files in a `lib/` folder are libraries. One package (the folder holding
// .ai/) is one skill whose tools are the callable Rye tools; libraries, runtimes,
// primitives and MCP server definitions are recorded under metadata.rye.components.
//   rye/record.ts      one file's metadata, per source language
//   rye/tool.ts        a record -> a tool or a component
//   rye/parameters.ts  the `parameters` list -> JSON Schema
//   rye/signatures.ts  the package's signature from its files'

import { addToGroup } from '../group';
import { nameFromPath } from '../names';
import { newManifest, type Pkg } from '../package';
import type { SkillManifest, SkillSignature, ToolManifest } from '../types';
import { readmeSummary } from './readme';
import { readRecord } from './rye/record';
import { combineSignatures } from './rye/signatures';
import { RYE_TOOLS_DIR, TOOL_FILE, toTool } from './rye/tool';
import { verifyFileSignature } from './signed-file';

export { RYE_TOOLS_DIR };
export { ryeParametersToSchema } from './rye/parameters';

export function isRyeToolFile(rel: string): boolean {
  const base = rel.split('/').pop()!;
  return rel.startsWith(RYE_TOOLS_DIR) && TOOL_FILE.test(base) && !base.startsWith('_') && !/\.d\.ts$/i.test(base) && !isRyeLibraryFile(rel) && !isRyeConfigSchema(rel);
}

/** `<tool>.config-schema.yaml`: the schema of a tool's configuration, which Rye reads as data. */
export function isRyeConfigSchema(rel: string): boolean {
  return rel.startsWith(RYE_TOOLS_DIR) && /\.config-schema\.ya?ml$/i.test(rel);
}

/** Code in a `lib/` folder under .ai/tools is a library the tools import (Rye loads it as one), not a tool. */
export function isRyeLibraryFile(rel: string): boolean {
  return rel.startsWith(RYE_TOOLS_DIR) && rel.slice(RYE_TOOLS_DIR.length).split('/').slice(0, -1).includes('lib');
}

export function readRye(pkg: Pkg): SkillManifest {
  const m = newManifest(nameFromPath(pkg.dirName ?? 'unnamed'), 'rye');
  m.files = pkg.fileList();
  const toolFiles = m.files.filter(isRyeToolFile);
  const libraryFiles = m.files.filter((f) => isRyeLibraryFile(f) && TOOL_FILE.test(f));
  const components: Record<string, unknown> = {};
  const signatures: Record<string, SkillSignature> = {};
  const versions = new Set<string>();
  const found: Found[] = [];
  const data = m.files.filter(isRyeConfigSchema);
  for (const rel of toolFiles) {
    const text = pkg.readText(rel);
    if (text === null) continue;
    const sig = verifyFileSignature(text, pkg, rel);
    if (sig) signatures[rel] = sig;
    const rec = readRecord(pkg, rel, text);
    if (!rec) continue;
    const out = toTool(pkg, rec);
    if (!out) continue;
    if (out.version) versions.add(out.version);
    if (out.data) data.push(rel);
    else if (out.component) components[out.id] = out.info;
    else found.push({ category: out.category, tool: out.tool!, info: out.info, rec });
  }
  // Libraries are not read as tools; a signed one still has its signature checked.
  let signedLibraries = 0;
  for (const rel of libraryFiles) {
    const text = pkg.readText(rel);
    if (text === null) continue;
    const sig = verifyFileSignature(text, pkg, rel);
    if (sig) {
      signatures[rel] = sig;
      signedLibraries++;
    }
  }
  if (toolFiles.length === 0 && libraryFiles.length === 0 && data.length === 0) pkg.scope('.ai/tools').error('rye/no-tools', 'the .ai/tools folder holds no tool files (.py, .yaml, .js, .ts, .sh)');
  const ryeTools: Record<string, unknown> = {};
  for (const t of nameByIdentity(found)) {
    m.tools.push(t.tool);
    ryeTools[t.tool.name] = t.info;
  }
  // MCP tools must point at a server definition in this package.
  for (const t of m.tools) {
    if (t.handler.kind !== 'mcp' || !t.handler.ref) continue;
    const server = t.handler.ref.split('#')[0];
    if (!components[server]) {
      const info = ryeTools[t.name] as { file: string };
      pkg.scope(info.file).warn('rye/mcp-server-not-found', `MCP server definition ${server} is not in this package (.ai/tools/${server}.yaml)`, '/config/server');
    }
  }
  m.metadata = { rye: { tools: ryeTools, ...(Object.keys(components).length ? { components } : {}), ...(libraryFiles.length ? { libraries: libraryFiles } : {}), ...(data.length ? { data: data.sort() } : {}), ...(Object.keys(signatures).length ? { signatures } : {}) } };
  m.version = versions.size === 1 ? [...versions][0] : null;
  m.description = readmeSummary(pkg) ?? readmeSummary(pkg, '.ai/README.md') ?? (m.tools.length === 1 ? m.tools[0].description : m.tools.length ? `Rye tools: ${m.tools.map((t) => t.name).join(', ')}` : '');
  m.signature = combineSignatures(signatures, toolFiles.length + signedLibraries);
  return m;
}

type Found = { category: string; tool: ToolManifest; info: Record<string, unknown>; rec: { scope: ReturnType<Pkg['scope']> } };

/**
 * A Rye tool's identity is its category path plus its name. The same identity twice (one
 * name in one category: `git/status.py` and `git/status.yaml`) is `tool/duplicate-name`.
 * Tools of one name in different categories are different tools: each gets its category
 * path in its ref (`git/status` -> `git-status`). Where that flattening is ambiguous
 * (`a/b/c` and `a-b/c` both give `a-b-c`), the colliding refs spell folder separators
 * `--` (`a--b-c`, `a-b-c`); refs that still collide (folders differing only in case or
 * `_` vs `-`) are reported, naming both tools.
 */
function nameByIdentity(found: Found[]): Found[] {
  const kept: Found[] = [];
  const byIdentity = new Map<string, Found>();
  for (const t of found) {
    const identity = `${t.category}\0${t.tool.name}`;
    const first = byIdentity.get(identity);
    if (first) {
      const where = t.category ? `in the category "${t.category}"` : 'at the top of .ai/tools';
      const same = first.tool.sourceName === t.tool.sourceName;
      t.rec.scope.error('tool/duplicate-name', `${first.info.file} already defines a Rye tool ${same ? `named "${t.tool.sourceName}"` : `"${first.tool.sourceName}" with the same ref as "${t.tool.sourceName}"`} ${where}`, undefined, 1);
      continue;
    }
    byIdentity.set(identity, t);
    kept.push(t);
  }
  const categories = new Map<string, Set<string>>();
  for (const t of kept) {
    if (!categories.has(t.tool.name)) categories.set(t.tool.name, new Set());
    categories.get(t.tool.name)!.add(t.category);
  }
  const own = new Map(kept.map((t) => [t, t.tool.name]));
  const qualify = (t: Found, separator: string) => {
    const q = `${t.category.toLowerCase().split('/').map((seg) => seg.replace(/_+/g, '-')).join(separator)}-${own.get(t)}`;
    return /^[a-z0-9][a-z0-9-]*$/.test(q) ? q : t.tool.name;
  };
  for (const t of kept) if (categories.get(t.tool.name)!.size > 1 && t.category) t.tool.name = qualify(t, '-');
  for (const group of groupByName(kept)) {
    if (group.length > 1) for (const t of group) if (t.category.includes('/')) t.tool.name = qualify(t, '--');
  }
  const out: Found[] = [];
  for (const group of groupByName(kept)) {
    out.push(group[0]);
    for (const t of group.slice(1)) {
      t.rec.scope.error('tool/duplicate-name', `the Rye tools "${label(group[0])}" (${group[0].info.file}) and "${label(t)}" both get the tool ref "${t.tool.name}"; rename one of them or its folder`, undefined, 1);
    }
  }
  return kept.filter((t) => out.includes(t));
}

/** `<category>/<name>`, as the tool is known in Rye. */
function label(t: Found): string {
  const name = t.tool.sourceName.split('/').pop();
  return t.category ? `${t.category}/${name}` : `${name}`;
}

function groupByName(tools: Found[]): Found[][] {
  const groups = new Map<string, Found[]>();
  for (const t of tools) addToGroup(groups, t.tool.name, t);
  return [...groups.values()];
}
