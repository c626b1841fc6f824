import { describe, expect, it } from 'vitest';
import { codes, one } from '../test-helpers';

// Rye's own loader decides what is a tool: its tool extractor declares executor_id
// nullable for every type, and runner configuration is data. Fixtures written for this test.
const TOOL = `"""Count words."""
__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python_function_runtime"
__category__ = "text"
__tool_description__ = "Count the words of a text"

CONFIG_SCHEMA = {"type": "object", "properties": {"text": {"type": "string", "description": "the text"}}}


def execute(params, project_path):
    return {"success": True}
`;

const EXTRACTOR = `version: "1.0.0"
tool_type: extractor
executor_id: null
category: core/extractors
description: Pulls metadata out of notes files
extensions: [.note]
`;

const PARSER = `version: "1.0.0"
tool_type: parser
executor_id: null
category: core/parsers
description: Parses notes
`;

const RUNNER_CONFIG = `# limits the thread runner reads at start
max_turns: 40
retries:
  backoff: exponential
  attempts: 3
`;

const CONFIG_SCHEMA_FILE = `type: object
properties:
  max_turns: {type: integer}
`;

describe('Rye components and data files are not judged as tools', () => {
  it('extractors and parsers with a null executor_id are components', () => {
    const m = one({ 'pkg/.ai/tools/text/count.py': TOOL, 'pkg/.ai/tools/core/extractors/notes.yaml': EXTRACTOR, 'pkg/.ai/tools/core/parsers/notes_parser.yaml': PARSER });
    expect(codes(m)).toEqual([]);
    expect(m.tools.map((t) => t.name)).toEqual(['count']);
    const rye = m.metadata.rye as { components: Record<string, { toolType: string }> };
    expect(Object.keys(rye.components).sort()).toEqual(['core/extractors/notes', 'core/parsers/notes_parser']);
    expect(rye.components['core/extractors/notes'].toolType).toBe('extractor');
  });

  it('a tool that runs code still may not have a null executor', () => {
    const m = one({ 'pkg/.ai/tools/text/count.py': TOOL.replace('"rye/core/runtimes/python_function_runtime"', 'None') });
    expect(codes(m)).toEqual(['rye/executor-null']);
  });

  it('runner configuration YAML without tool_type is data, with a note', () => {
    const m = one({ 'pkg/.ai/tools/text/count.py': TOOL, 'pkg/.ai/tools/agent/threads/config/limits.yaml': RUNNER_CONFIG });
    expect(m.diagnostics.map((d) => [d.severity, d.code])).toEqual([['note', 'rye/data-file']]);
    expect(m.tools.map((t) => t.name)).toEqual(['count']);
    expect((m.metadata.rye as { data: string[] }).data).toEqual(['.ai/tools/agent/threads/config/limits.yaml']);
  });

  it('*.config-schema.yaml files are data, silently', () => {
    const m = one({ 'pkg/.ai/tools/text/count.py': TOOL, 'pkg/.ai/tools/text/count.config-schema.yaml': CONFIG_SCHEMA_FILE });
    expect(codes(m)).toEqual([]);
    expect((m.metadata.rye as { data: string[] }).data).toEqual(['.ai/tools/text/count.config-schema.yaml']);
  });

  it('CONFIG_SCHEMA may name a literal defined above it in the same file', () => {
    const src = TOOL.replace('CONFIG_SCHEMA = {"type": "object", "properties": {"text": {"type": "string", "description": "the text"}}}', `ACTIONS = ["count", "list"]
MODES = ("fast", "exact")
TEXT = {"type": "string", "description": "the text"}

CONFIG_SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ACTIONS, "description": "what to do"},
        "mode": {"type": "string", "enum": MODES, "description": "how"},
        "text": TEXT,
    },
}`);
    const m = one({ 'pkg/.ai/tools/text/count.py': src });
    expect(codes(m)).toEqual([]);
    expect(m.tools[0].params).toMatchObject({ properties: { action: { enum: ['count', 'list'] }, mode: { enum: ['fast', 'exact'] }, text: { type: 'string' } } });
  });

  it('a name that is not a literal above (a call, a later name) is still not a literal', () => {
    const later = TOOL.replace('CONFIG_SCHEMA = {', 'CONFIG_SCHEMA = {"enum": LATER, ').concat('\nLATER = ["a"]\n');
    expect(codes(one({ 'pkg/.ai/tools/text/count.py': later }))).toEqual(['rye/metadata-not-literal']);
    const call = TOOL.replace('CONFIG_SCHEMA = {', 'ACTIONS = ["a"]\nCONFIG_SCHEMA = {"enum": ACTIONS(), ');
    expect(codes(one({ 'pkg/.ai/tools/text/count.py': call }))).toEqual(['rye/metadata-not-literal']);
  });

  it('names that double at each step stop at a budget instead of growing without bound', () => {
    const lines = ['A0 = [1, 2, 3, 4, 5, 6, 7, 8]'];
    for (let i = 1; i < 30; i++) lines.push(`A${i} = [A${i - 1}, A${i - 1}]`);
    const src = TOOL.replace('CONFIG_SCHEMA = {', `${lines.join('\n')}\nCONFIG_SCHEMA = {"x": A29, `);
    expect(codes(one({ 'pkg/.ai/tools/text/count.py': src }))).toContain('rye/metadata-not-literal');
  });
});
