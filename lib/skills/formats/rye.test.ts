import { describe, expect, it } from 'vitest';
import { codes, find, one } from '../test-helpers';

const PY = `# rye:signed:2026-01-01T00:00:00Z:${'0'.repeat(64)}:${'A'.repeat(86)}:0123456789abcdef
"""Write a file."""

__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/function"
__category__ = "rye/file-system"
__tool_description__ = "Create or overwrite a file"

CONFIG_SCHEMA = {
    "type": "object",
    "properties": {
        "file_path": {"type": "string", "description": "Path"},
        "mode": {"type": "string", "enum": ["overwrite", "append"], "default": "overwrite"},
        "timeout": {"type": "integer", "default": 120},
    },
    "required": ["file_path"],
}


def execute(params: dict, project_path: str) -> dict:
    x = """
__version__ = "9.9.9"
"""
    return {"success": True}
`;

const YAML_TOOL = `# rye:signed:TIMESTAMP:HASH:SIGNATURE:KEYID
tool_id: deploy-service
tool_type: yaml
version: "1.0.0"
executor_id: rye/core/runtimes/python/script
category: deployment
description: Deploy service to cluster
requires: [shell.execute, net.http]
timeout: 30
parameters:
  - name: service_name
    type: string
    required: true
    description: Name of service to deploy
  - name: replicas
    type: integer
    required: false
    default: 3
    minimum: 1
    maximum: 10
    description: Replicas
outputs:
  type: object
  properties:
    status: { type: string, enum: [success, failed] }
config:
  command: python
  args: [deploy.py]
`;

const TS_TOOL = `// .ai/tools/utility/hello_node.ts
// rye:signed:TIMESTAMP:HASH:SIGNATURE:KEYID

export const __version__ = "1.0.0";
export const __tool_type__ = "javascript";
export const __executor_id__ = "rye/core/runtimes/node/node";
export const __category__ = "utility";
export const __tool_description__ = "Greet a user by name";

export const CONFIG_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "Name to greet" },
  },
  required: ["name"],
};

function main(params: Record<string, unknown>) {
  return { success: true, output: \`Hello, \${params.name}!\` };
}
export default main;
`;

const MCP_TOOL = `tool_type: mcp
executor_id: rye/core/runtimes/mcp/http
category: mcp/context7
version: 1.0.0
description: 'Retrieves documentation from Context7 for any library.'
config:
  server: mcp/servers/context7
  tool_name: query-docs
input_schema:
  type: object
  properties:
    libraryId: { type: string }
    query: { type: string }
  required: [libraryId, query]
`;
const MCP_SERVER = `tool_type: mcp_server
executor_id: null
category: mcp/servers
version: 1.0.0
description: 'MCP server: context7'
config:
  transport: http
  timeout: 30
  url: https://mcp.context7.com/mcp
`;

describe('rye tools', () => {
  it('reads Python, YAML, TS and MCP tools of one package without running them', () => {
    const m = one({
      'proj/.ai/tools/rye/file-system/write.py': PY,
      'proj/.ai/tools/deployment/deploy.yaml': YAML_TOOL,
      'proj/.ai/tools/utility/hello_node.ts': TS_TOOL,
      'proj/.ai/tools/mcp/context7/query-docs.yaml': MCP_TOOL,
      'proj/.ai/tools/mcp/servers/context7.yaml': MCP_SERVER,
      'proj/.ai/tools/rye/file-system/__init__.py': '',
    });
    expect(m.format).toBe('rye');
    expect(m.name).toBe('proj');
    // the seed's MCP example has no tool_id: the file name is used, with a warning;
    // the seed's template signature lines are placeholders; write.py's hash is wrong
    expect(codes(m).sort()).toEqual(['rye/tool-id-missing', 'signature/hash-mismatch', 'signature/placeholder', 'signature/placeholder']);
    expect(find(m, 'signature/hash-mismatch')).toMatchObject({ file: 'proj/.ai/tools/rye/file-system/write.py', line: 1 });
    expect(m.tools.map((t) => [t.name, t.sourceName, t.handler.kind, t.executor])).toEqual([
      ['deploy-service', 'deploy-service', 'python', 'rye/core/runtimes/python/script'],
      ['query-docs', 'query-docs', 'mcp', 'rye/core/runtimes/mcp/http'],
      ['write', 'write', 'python', 'rye/core/runtimes/python/function'],
      ['hello-node', 'hello_node', 'ts', 'rye/core/runtimes/node/node'],
    ]);
    const write = m.tools.find((t) => t.name === 'write')!;
    expect(write.description).toBe('Create or overwrite a file');
    expect(write.params).toMatchObject({ required: ['file_path'], properties: { timeout: { type: 'integer', default: 120 } } });
    const deploy = m.tools[0];
    expect(deploy.params).toEqual({
      type: 'object',
      properties: {
        service_name: { type: 'string', description: 'Name of service to deploy' },
        replicas: { type: 'integer', default: 3, minimum: 1, maximum: 10, description: 'Replicas' },
      },
      required: ['service_name'],
    });
    expect(deploy.capabilities).toEqual(['shell.execute', 'net.http', 'net']);
    expect(deploy.timeoutMs).toBe(30_000);
    expect(deploy.returns).toMatchObject({ type: 'object' });
    expect(m.tools[1].handler.ref).toBe('mcp/servers/context7#query-docs');
    expect(m.tools[1].capabilities).toEqual(['net']);
    expect((m.metadata.rye as { components: Record<string, unknown> }).components).toHaveProperty('mcp/servers/context7');
    // the signature on write.py is well-formed but its hash does not match
    expect(m.signature).toMatchObject({ verified: false });
  });

  it('reports missing metadata, executor rules, category and version', () => {
    const py = (body: string, path = 'p/.ai/tools/cat/t.py') => one({ [path]: body });
    const m = py('__version__ = "1.0"\n__tool_type__ = "python"\n__category__ = "other"\n\ndef execute(params, project_path):\n    return {}\n');
    expect(codes(m).sort()).toEqual(['rye/category-mismatch', 'rye/execute-return', 'rye/executor-missing', 'rye/field-missing', 'version/not-semver']);
    expect(find(m, 'rye/category-mismatch')).toMatchObject({ line: 3, path: '/__category__' });
    const nul = py('__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = None\n__category__ = "cat"\n__tool_description__ = "d"\ndef execute(p, q):\n    pass\n');
    expect(codes(nul)).toEqual(['rye/executor-null']);
    const lib = py('__version__ = "1.0.0"\n__tool_type__ = "library"\n__executor_id__ = None\n__category__ = "cat"\n__tool_description__ = "d"\n');
    expect(codes(lib)).toEqual([]);
    expect(lib.tools).toEqual([]);
    const noExec = py('__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "cat"\n__tool_description__ = "d"\n');
    expect(codes(noExec)).toEqual(['rye/execute-missing']);
    const computed = py('import os\n__version__ = os.environ["V"]\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "cat"\n__tool_description__ = "d"\ndef execute(p, q): pass\n');
    expect(find(computed, 'rye/metadata-not-literal')).toMatchObject({ line: 2 });
  });

  it('validates YAML tool rules', () => {
    const y = (doc: string) => one({ 'p/.ai/tools/cat/t.yaml': doc });
    const head = 'tool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: cat\ndescription: d\n';
    expect(codes(y(`tool_id: Deploy_Service\n${head}`))).toEqual(['rye/tool-id-invalid']);
    expect(codes(y(`tool_id: deploy_service\n${head}`))).toEqual(['rye/tool-id-not-kebab']);
    expect(y(`tool_id: deploy_service\n${head}`).tools[0].name).toBe('deploy-service');
    expect(codes(y(`tool_id: a\n${head}parameters:\n  - type: string\n`))).toEqual(['rye/param-name-missing']);
    expect(codes(y(`tool_id: a\n${head}parameters:\n  - name: x\n    type: str\n    description: d\n`)).sort()).toEqual(['param/type-invalid', 'schema/type-invalid']);
    expect(codes(y(`tool_id: a\n${head}parameters: {x: 1}\n`))).toEqual(['rye/parameters-invalid']);
    expect(codes(y(`tool_id: a\n${head}input_schema:\n  type: object\n  properties:\n    s: {type: string, pattern: "(["}\n`))).toEqual(['schema/pattern-invalid']);
    expect(codes(y(`tool_id: a\n${head}input_schema:\n  type: object\n  properties:\n    s: {type: string, enum: []}\n`))).toEqual(['schema/enum-empty']);
    expect(codes(y(`tool_id: a\n${head}requires: [Shell Execute]\n`))).toEqual(['rye/requires-invalid']);
    expect(codes(y('- a\n- b\n'))).toEqual(['rye/yaml-not-mapping']);
    expect(codes(y(`tool_id: a\ntool_type: mcp\nversion: 1.0.0\nexecutor_id: x\ncategory: cat\ndescription: d\n`)).sort()).toEqual(['rye/mcp-config-missing']);
    expect(codes(y(`tool_id: a\ntool_type: mcp\nversion: 1.0.0\nexecutor_id: x\ncategory: cat\ndescription: d\nconfig: {server: s/x, tool_name: t}\n`))).toEqual(['rye/mcp-server-not-found']);
    expect(codes(y(`tool_id: a\ntool_type: teleport\n${head.slice('tool_type: yaml\n'.length)}`))).toEqual(['rye/tool-type-unknown']);
  });

  it('reads a tool given as a lone file path in the tree', () => {
    const m = one({ '.ai/tools/utility/hello_node.ts': TS_TOOL }, { rootName: 'demo' });
    expect(m.name).toBe('demo');
    expect(m.tools[0].name).toBe('hello-node');
    expect(m.description).toBe('Greet a user by name');
  });
});

describe('rye execute() returns', () => {
  it('warns when a returned dict has no success key (rule 11)', () => {
    const py = '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "c"\n__tool_description__ = "d"\n\ndef execute(params, project_path):\n    if params.get("x"):\n        return {"output": 1}\n    result = {"success": True}\n    return result\n\ndef other():\n    return {"nope": 1}\n';
    const m = one({ 'p/.ai/tools/c/t.py': py });
    expect(m.diagnostics.map((d) => [d.code, d.line])).toEqual([['rye/execute-return', 9]]);
  });
});
