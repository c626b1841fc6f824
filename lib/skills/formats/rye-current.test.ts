// The current Rye OS dialect (`# ryeos:signed:`, `name`, `required_caps`,
// `config_schema`, `# ryeos-tool:` headers), libraries, and the precise execute() check.
// Fixtures are written here, modelled on the shapes the current dialect uses.
import { describe, expect, it } from 'vitest';
import { parsePythonModule } from '../python-literal';
import { codes, find, one } from '../test-helpers';

const SIG = (hex: string) => `# ryeos:signed:2026-05-01T00:00:00Z:${hex.repeat(64)}:${'Ab+/'.repeat(21)}AA==:${'c'.repeat(64)}`;

const YAML_CURRENT = `${SIG('1')}
category: "net/tools"
name: "fetch_page"
executor_id: "@subprocess"
execution_protocol: "protocol:example/callback"
required_caps: ["net.http", "fs.read"]
requires:
  capabilities:
    manifest:
      authority:
        pages: [read]
description: "Fetch one page"
effects: live
config:
  command: "bin:fetcher"
  args: ["--stdin-json"]
  timeout_secs: 45
config_schema:
  type: object
  properties:
    url:
      type: string
      description: "Page URL"
  required: [url]
`;

const PY_HEADER = `${SIG('2')}
# ryeos-tool:
#   category: text/tools
#   version: "2.1.0"
#   description: Count the words of a text
#   executor_id: tool:example/runtimes/python/script
#   execution_protocol: protocol:example/opaque
#   required_caps: [fs.read]
#   config_schema:
#     type: object
#     properties:
#       text: {type: string, description: The text}
#     required: [text]
#   config_resolve:
#     path: text/words.yaml
#     mode: first_match
# Counts words; run as a script.

import sys

if __name__ == "__main__":
    print(len(sys.stdin.read().split()))
`;

describe('the current Rye OS dialect', () => {
  it('reads a YAML tool: name, required_caps, requires mapping kept, config_schema, no tool_type or version', () => {
    const m = one({ 'p/.ai/tools/net/tools/fetch_page.yaml': YAML_CURRENT });
    // only the signature, whose newer hash rule is still not checked
    expect(codes(m)).toEqual(['signature/dialect-unverified']);
    const t = m.tools[0];
    expect([t.name, t.sourceName, t.executor, t.description]).toEqual(['fetch-page', 'fetch_page', '@subprocess', 'Fetch one page']);
    expect(t.capabilities).toEqual(['net.http', 'fs.read', 'net']);
    expect(t.params).toEqual({ type: 'object', properties: { url: { type: 'string', description: 'Page URL' } }, required: ['url'] });
    expect(t.timeoutMs).toBe(45_000);
    expect(m.version).toBeNull();
    const info = (m.metadata.rye as { tools: Record<string, Record<string, unknown>> }).tools['fetch-page'];
    expect(info).toMatchObject({
      dialect: 'ryeos',
      executionProtocol: 'protocol:example/callback',
      requires: { capabilities: { manifest: { authority: { pages: ['read'] } } } },
      fields: { effects: 'live' },
    });
  });

  it('is recognised without a signature by its own fields, and unsigned old-style files keep the seed rules', () => {
    const unsigned = YAML_CURRENT.split('\n').slice(1).join('\n');
    expect(codes(one({ 'p/.ai/tools/net/tools/fetch_page.yaml': unsigned }))).toEqual([]);
    const byName = one({ 'p/.ai/tools/c/t.yaml': 'name: t\nexecutor_id: x\ncategory: c\ndescription: d\n' });
    expect(codes(byName)).toEqual([]);
    expect(byName.tools[0].name).toBe('t');
    // the seed's dialect: tool_type and version are required, requires must be a list
    const old = one({ 'p/.ai/tools/c/t.yaml': 'tool_id: t\nexecutor_id: x\ncategory: c\ndescription: d\nrequires: {capabilities: {}}\n' });
    expect(codes(old).sort()).toEqual(['rye/field-invalid', 'rye/field-missing', 'rye/field-missing']);
    // a rye:signed file is the seed's dialect even when it says name
    const signedOld = one({ 'p/.ai/tools/c/t.yaml': `# rye:signed:2026-01-01T00:00:00Z:${'0'.repeat(64)}:${'A'.repeat(86)}:0123456789abcdef\nname: t\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: c\ndescription: d\n` });
    expect(codes(signedOld).sort()).toEqual(['rye/tool-id-missing', 'signature/hash-mismatch']);
  });

  it('warns, never errors, where a current-dialect tool leaves out what it usually declares', () => {
    const m = one({ 'p/.ai/tools/c/t.yaml': `${SIG('3')}\nname: t\nrequired_caps: []\n` });
    expect(codes(m).sort()).toEqual(['rye/current-field-missing', 'signature/dialect-unverified']);
    expect(find(m, 'rye/current-field-missing')!.message).toMatch(/description, category, executor_id are missing/);
    expect(m.tools[0].capabilities).toEqual([]);
  });

  it('still reports what is wrong in the current dialect', () => {
    const y = (body: string) => one({ 'p/.ai/tools/c/t.yaml': `name: t\nexecutor_id: x\ndescription: d\n${body}` });
    expect(codes(y('category: c\nrequired_caps: fs.read\n'))).toEqual(['rye/field-invalid']);
    expect(find(y('category: c\nrequired_caps: [1]\n'), 'rye/field-invalid')).toMatchObject({ path: '/required_caps', line: 5 });
    expect(codes(y('category: other\nrequired_caps: []\n'))).toEqual(['rye/category-mismatch']);
    expect(codes(y('category: c\nversion: "1.0"\nrequired_caps: []\n'))).toEqual(['version/not-semver']);
    expect(codes(y('category: c\nrequired_caps: [Read Files]\n'))).toEqual(['rye/requires-invalid']);
    expect(codes(y('category: c\nrequired_caps: []\nconfig_schema: {type: object, properties: {s: {type: string, pattern: "(["}}}\n'))).toEqual(['schema/pattern-invalid']);
  });

  it('reads a Python tool from its # ryeos-tool: header, without execute() for a script runtime', () => {
    const m = one({ 'p/.ai/tools/text/tools/count_words.py': PY_HEADER });
    expect(codes(m)).toEqual(['signature/dialect-unverified']);
    const t = m.tools[0];
    expect([t.name, t.executor, t.description, t.handler.kind]).toEqual(['count-words', 'tool:example/runtimes/python/script', 'Count the words of a text', 'python']);
    expect(t.capabilities).toEqual(['fs.read']);
    expect(t.params).toEqual({ type: 'object', properties: { text: { type: 'string', description: 'The text' } }, required: ['text'] });
    expect(m.version).toBe('2.1.0');
    const info = (m.metadata.rye as { tools: Record<string, Record<string, unknown>> }).tools['count-words'];
    expect(info).toMatchObject({ dialect: 'ryeos', executionProtocol: 'protocol:example/opaque', configResolve: { path: 'text/words.yaml', mode: 'first_match' } });
  });

  it('locates header problems on their lines and requires execute() for a function runtime', () => {
    const py = (header: string, code = 'print(1)\n') => one({ 'p/.ai/tools/c/t.py': `#!/usr/bin/env python3\n# ryeos-tool:\n${header}\n${code}` });
    const mismatch = py('#   category: other\n#   description: d\n#   executor_id: x');
    expect(find(mismatch, 'rye/category-mismatch')).toMatchObject({ line: 3, path: '/category' });
    const fn = py('#   category: c\n#   description: d\n#   executor_id: tool:example/runtimes/python/function');
    expect(codes(fn)).toEqual(['rye/execute-missing']);
    const fnOk = py('#   category: c\n#   description: d\n#   executor_id: tool:example/runtimes/python/function', 'def execute(params, project_path):\n    return {"ok": True}\n');
    // rule 11 ({"success": ...}) is the seed's; the current runtimes read other shapes
    expect(codes(fnOk)).toEqual([]);
    const broken = py('#   category: [c\n#   description: d');
    expect(find(broken, 'yaml/invalid')).toMatchObject({ file: 'p/.ai/tools/c/t.py' });
    expect(find(broken, 'yaml/invalid')!.message).toMatch(/# ryeos-tool: header/);
    expect(codes(py('#   - a\n#   - b'))).toEqual(['rye/yaml-not-mapping']);
  });

  it('reads dunders in a ryeos:signed Python file with the current rules (version optional, no tool_type)', () => {
    const m = one({ 'p/.ai/tools/c/t.py': `${SIG('4')}\n"""Say hello."""\n__executor_id__ = "tool:example/runtimes/python/script"\n__category__ = "c"\n\nprint("hello")\n` });
    expect(codes(m)).toEqual(['signature/dialect-unverified']);
    expect(m.tools[0].description).toBe('Say hello.');
  });
});

describe('Rye libraries', () => {
  const TOOL = `# ryeos-tool:\n#   category: c\n#   description: d\n#   executor_id: x\n\nfrom helpers import run\n\nif __name__ == "__main__":\n    run()\n`;

  it('files in a lib/ folder are libraries the tools import, not tools', () => {
    const m = one({ 'p/.ai/tools/c/t.py': TOOL, 'p/.ai/tools/c/lib/helpers.py': 'def run():\n    pass\n', 'p/.ai/tools/lib/shared.py': 'X = 1\n' });
    expect(codes(m)).toEqual([]);
    expect(m.tools.map((t) => t.name)).toEqual(['t']);
    expect((m.metadata.rye as { libraries: string[] }).libraries).toEqual(['.ai/tools/c/lib/helpers.py', '.ai/tools/lib/shared.py']);
    // a lib/ folder alone is still a package with no tools, but not "no tool files"
    expect(codes(one({ 'q/.ai/tools/lib/shared.py': 'X = 1\n' }))).toEqual([]);
  });

  it('a signed library still has its signature checked', () => {
    const m = one({ 'p/.ai/tools/c/t.py': TOOL, 'p/.ai/tools/c/lib/helpers.py': `# rye:signed:2026-01-01T00:00:00Z:${'0'.repeat(64)}:${'A'.repeat(86)}:0123456789abcdef\ndef run():\n    pass\n` });
    expect(find(m, 'signature/hash-mismatch')).toMatchObject({ file: 'p/.ai/tools/c/lib/helpers.py', line: 1 });
  });

  it('a python module with no executor and no execute() is a library module: a warning, not an error', () => {
    const src = '__version__ = "1.0.0"\n__tool_type__ = "python"\n__category__ = "c"\n__tool_description__ = "Ledger"\n\nclass Ledger:\n    def reserve(self, n):\n        return n\n\ndef get_ledger():\n    return Ledger()\n';
    const m = one({ 'p/.ai/tools/c/ledger.py': src });
    expect(codes(m)).toEqual(['rye/library-module']);
    expect(find(m, 'rye/library-module')).toMatchObject({ line: 2, path: '/__tool_type__' });
    expect(m.tools).toEqual([]);
    expect((m.metadata.rye as { components: Record<string, unknown> }).components['c/ledger']).toMatchObject({ toolType: 'library', declaredToolType: 'python' });
    // with an executor it claims to be a tool: execute() is missing
    expect(codes(one({ 'p/.ai/tools/c/ledger.py': src.replace('__category__', '__executor_id__ = "x"\n__category__') }))).toEqual(['rye/execute-missing']);
  });
});

describe('the execute() entry point', () => {
  const head = '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "c"\n__tool_description__ = "d"\n\n';
  const py = (body: string) => codes(one({ 'p/.ai/tools/c/t.py': head + body }));

  it('is a module-level def execute or a class with an execute method, not any class or function', () => {
    expect(py('class Helper:\n    def run(self):\n        pass\n')).toEqual(['rye/execute-missing']);
    expect(py('def main():\n    pass\n')).toEqual(['rye/execute-missing']);
    expect(py('def helper():\n    def execute(p, q):\n        pass\n')).toEqual(['rye/execute-missing']);
    expect(py('class Outer:\n    def run(self):\n        def execute(p, q):\n            pass\n')).toEqual(['rye/execute-missing']);
    expect(py('class Tool:\n    """A tool."""\n    @staticmethod\n    def execute(params, project_path):\n        return {"success": True}\n')).toEqual([]);
    expect(py('class Tool:\n    async def execute(self, params, project_path):\n        return {"success": True}\n')).toEqual([]);
    expect(py('async def execute(params, project_path):\n    return {"success": True}\n')).toEqual([]);
  });

  it('the Python reader lists the classes that have an execute method', () => {
    const mod = parsePythonModule('class A:\n    def execute(self):\n        pass\nclass B:\n    x = 1\n\n    def other(self):\n        def execute():\n            pass\nclass C(Base):\n\n    @classmethod\n    async def execute(cls):\n        pass\n', { maxDepth: 64 });
    expect([...mod.classesWithExecute].sort()).toEqual(['A', 'C']);
    expect([...mod.classes.keys()]).toEqual(['A', 'B', 'C']);
  });
});
