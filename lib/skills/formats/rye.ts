// Rye OS tools under .ai/tools/**: Python (dunder metadata + CONFIG_SCHEMA +
// execute), YAML (tool_id, parameters list, input_schema, MCP tool and server defs),
// JS/TS (`export const __dunder__`) and bash (`.sh`). One package (the folder holding
// .ai/) is one skill whose tools are the callable Rye tools; libraries, runtimes,
// primitives and MCP server definitions are recorded under metadata.rye.components.
//   rye/record.ts      one file's metadata, per source language
//   rye/tool.ts        a record -> a tool or a component
//   rye/parameters.ts  the `parameters` list -> JSON Schema
//   rye/signatures.ts  the package's signature from its files'

import { nameFromPath } from '../names';
import { newManifest, type Pkg } from '../package';
import type { SkillManifest, SkillSignature, ToolManifest } from '../types';
import { readmeSummary } from './readme';
import { readRecord } from './rye/record';
import { combineSignatures } from './rye/signatures';
import { RYE_TOOLS_DIR, TOOL_FILE, toTool, type ToolOut } from './rye/tool';
import { verifyFileSignature } from './signed-file';

export { RYE_TOOLS_DIR };
export { ryeParametersToSchema } from './rye/parameters';

export function isRyeToolFile(rel: string): boolean {
  const base = rel.split('/').pop()!;
  return rel.startsWith(RYE_TOOLS_DIR) && TOOL_FILE.test(base) && !base.startsWith('_') && !/\.d\.ts$/i.test(base);
}

export function readRye(pkg: Pkg): SkillManifest {
  const m = newManifest(nameFromPath(pkg.dirName ?? 'unnamed'), 'rye');
  m.files = pkg.fileList();
  const toolFiles = m.files.filter(isRyeToolFile);
  const components: Record<string, unknown> = {};
  const signatures: Record<string, SkillSignature> = {};
  const versions = new Set<string>();
  const found: (ToolOut & { tool: ToolManifest; rec: { scope: ReturnType<Pkg['scope']> } })[] = [];
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
    if (out.component) components[out.id] = out.info;
    else found.push({ ...out, tool: out.tool!, rec });
  }
  if (toolFiles.length === 0) pkg.scope('.ai/tools').error('rye/no-tools', 'the .ai/tools folder holds no tool files (.py, .yaml, .js, .ts, .sh)');
  const ryeTools: Record<string, unknown> = {};
  for (const t of nameByIdentity(found)) {
    if (m.tools.some((x) => x.name === t.tool.name)) {
      t.rec.scope.error('tool/duplicate-name', `another Rye tool in this package is also named "${t.tool.name}" in the same category`, undefined, 1);
      continue;
    }
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
  m.metadata = { rye: { tools: ryeTools, ...(Object.keys(components).length ? { components } : {}), ...(Object.keys(signatures).length ? { signatures } : {}) } };
  m.version = versions.size === 1 ? [...versions][0] : null;
  m.description = readmeSummary(pkg) ?? readmeSummary(pkg, '.ai/README.md') ?? (m.tools.length === 1 ? m.tools[0].description : m.tools.length ? `Rye tools: ${m.tools.map((t) => t.name).join(', ')}` : '');
  m.signature = combineSignatures(signatures, toolFiles.length);
  return m;
}

/**
 * Tools of the same name in different categories are different tools: each then gets
 * its category path in its ref (`git/status` -> `git-status`), so refs stay unique.
 */
function nameByIdentity<T extends { category: string; tool: ToolManifest }>(found: T[]): T[] {
  const categories = new Map<string, Set<string>>();
  for (const t of found) {
    if (!categories.has(t.tool.name)) categories.set(t.tool.name, new Set());
    categories.get(t.tool.name)!.add(t.category);
  }
  for (const t of found) {
    if (categories.get(t.tool.name)!.size > 1 && t.category) {
      const qualified = `${t.category.replace(/[/_]+/g, '-').toLowerCase()}-${t.tool.name}`;
      if (/^[a-z0-9][a-z0-9-]*$/.test(qualified)) t.tool.name = qualified;
    }
  }
  return found;
}
