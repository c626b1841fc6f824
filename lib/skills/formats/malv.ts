// malv app: a tools.json array (input_schema/output_schema/capabilities/tokens) with
// TypeScript handlers `(input, capabilities)` under src/tools/. A tools.json that is an
// MCP tool list (camelCase inputSchema) is read as that, under the same format id.

import { LocatedParseError, parseJsonLocated } from '../located-json';
import { isSemver, isValidSkillName, nameFromPath } from '../names';
import { isPlainObject, newManifest, type Pkg } from '../package';
import { readToolsJson } from '../tools-json';
import type { SkillManifest } from '../types';
import { readmeSummary } from './readme';

export function readMalv(pkg: Pkg): SkillManifest {
  const m = newManifest(nameFromPath(pkg.dirName ?? 'unnamed'), 'malv');
  m.files = pkg.fileList();
  // Name, description and version come from package.json when the app has one.
  if (pkg.has('package.json')) {
    const text = pkg.readText('package.json');
    if (text !== null) {
      try {
        const pj = parseJsonLocated(text, pkg.opts.limits.maxDepth).value;
        if (isPlainObject(pj)) {
          if (typeof pj.name === 'string') {
            const n = pj.name.replace(/^@[^/]+\//, '');
            if (isValidSkillName(n)) m.name = n;
            else pkg.scope('package.json').warn('malv/name-invalid', `package name "${pj.name}" is not a valid skill name; using "${m.name}"`, '/name');
          }
          if (typeof pj.description === 'string') m.description = pj.description.trim();
          if (typeof pj.version === 'string') {
            if (isSemver(pj.version)) m.version = pj.version;
            else pkg.scope('package.json').warn('version/not-semver', `version "${pj.version}" is not semantic versioning`, '/version');
          }
          // the hosts the `net` capability may reach (metadata.net.hosts, as in the other formats)
          if (isPlainObject(pj.metadata) && isPlainObject(pj.metadata.net)) m.metadata = { ...m.metadata, net: { ...pj.metadata.net } };
        }
      } catch (e) {
        pkg.scope('package.json').error('json/invalid', `package.json is not valid JSON: ${(e as Error).message}`, undefined, (e as LocatedParseError).line);
      }
    }
  } else if (pkg.dirName !== null && !isValidSkillName(pkg.dirName)) {
    pkg.scope('tools.json').warn('malv/name-invalid', `folder name "${pkg.dirName}" is not a valid skill name; using "${m.name}"`);
  }
  // An MCP tool list (inputSchema) is read as one: no malv capabilities or handlers.
  m.tools = readToolsJson(pkg, 'tools.json', 'malv', (d) => (m.metadata.toolsFormat = d), m.name);
  if (!m.description) m.description = readmeSummary(pkg) ?? (m.tools.length ? `Tools: ${m.tools.map((t) => t.name).join(', ')}` : '');
  if (!m.description) pkg.scope('tools.json').warn('malv/description-missing', 'add a package.json description or a README.md to describe this app');
  return m;
}
