import { describe, expect, it } from 'vitest';
import { codes, find, one, read, skillMd } from '../test-helpers';

const TOOLS = JSON.stringify([
  { name: 'count_words', description: 'Count words', script: 'scripts/count_words.js', parameters: { text: { type: 'string', description: 'Text' }, max: { type: 'integer', description: 'Max', optional: true } } },
]);
const HANDLER = 'export default async function handler(args) { return { count: args.text.split(/\\s+/).length }; }';

describe('agent-skill folder', () => {
  it('reads SKILL.md + tools.json + scripts into the canonical manifest', () => {
    const m = one({
      'count-words/SKILL.md': skillMd('name: count-words\ndescription: Counts words.\nallowed-tools: [read-file, "grep(pattern=*)"]\nlicense: MIT\nmetadata:\n  version: 1.2.3\n  tags: [Text Tools, NLP]\n  $inherit: true', '# Count\nUse the tool.'),
      'count-words/tools.json': TOOLS,
      'count-words/scripts/count_words.js': HANDLER,
    });
    expect(m.format).toBe('agent-skill');
    expect(m.name).toBe('count-words');
    expect(m.version).toBe('1.2.3');
    expect(m.allowedTools).toBe('read-file grep(pattern=*)');
    expect(m.instructions).toBe('# Count\nUse the tool.\n');
    expect(m.metadata).toEqual({ version: '1.2.3', tags: ['text-tools', 'nlp'], $inherit: true, license: 'MIT' });
    expect(m.files).toEqual(['SKILL.md', 'scripts/count_words.js', 'tools.json']);
    expect(m.diagnostics).toEqual([]);
    expect(m.tools).toHaveLength(1);
    const t = m.tools[0];
    expect(t.name).toBe('count-words');
    expect(t.sourceName).toBe('count_words');
    expect(t.handler).toEqual({ kind: 'js', ref: 'scripts/count_words.js' });
    expect(t.params).toEqual({ type: 'object', properties: { text: { type: 'string', description: 'Text' }, max: { type: 'integer', description: 'Max' } }, required: ['text'] });
  });

  it('is instruction-only without tools.json or delegate', () => {
    const m = one({ 'guide/SKILL.md': skillMd('name: guide\ndescription: A guide.', 'Step one.') });
    expect(m.tools).toEqual([]);
    expect(m.instructions).toBe('Step one.\n');
  });

  it('checks name rules and the folder name', () => {
    const r = one({ 'my-skill/SKILL.md': skillMd('name: other-name\ndescription: x') });
    const d = find(r, 'skill/name-dir-mismatch')!;
    expect(d).toMatchObject({ severity: 'error', file: 'my-skill/SKILL.md', path: '/name', line: 2 });
    expect(codes(one({ 'Bad--Name/SKILL.md': skillMd('name: Bad--Name\ndescription: x') }))).toContain('skill/name-invalid');
    expect(codes(one({ 'x/SKILL.md': skillMd('description: x') }))).toContain('skill/name-missing');
    expect(codes(one({ 'x/SKILL.md': skillMd('name: x') }))).toContain('skill/description-missing');
    // rootName stands in for the folder when the files are a folder's contents
    expect(codes(one({ 'SKILL.md': skillMd('name: x\ndescription: y') }, { rootName: 'z' }))).toContain('skill/name-dir-mismatch');
    expect(codes(one({ 'SKILL.md': skillMd('name: x\ndescription: y') }))).toEqual([]);
  });

  it('moves non-top-level fields into metadata, warning where the seed says they belong there', () => {
    // an agent-apps skill (it delegates): role belongs in metadata
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nrole: main\nfoo: 1\ncompatibility: Node 20\nmetadata:\n  delegate: "inline://code,export default async () => 1"') });
    expect(m.metadata).toMatchObject({ role: 'main', foo: 1, compatibility: 'Node 20' });
    expect(find(m, 'frontmatter/field-not-in-metadata')).toMatchObject({ path: '/role', line: 4 });
    expect(find(m, 'frontmatter/unknown-field')).toMatchObject({ path: '/foo' });
    expect(m.diagnostics.some((d) => d.message.includes('compatibility'))).toBe(false);
  });

  it('flags frontmatter problems with lines', () => {
    expect(codes(one({ 'x/SKILL.md': 'no frontmatter' }))).toEqual(['frontmatter/missing']);
    expect(codes(one({ 'x/SKILL.md': '---\nname: x\n' }))).toEqual(['frontmatter/unterminated']);
    const bad = one({ 'x/SKILL.md': '---\nname: x\ndescription: [unclosed\n---\nbody' });
    expect(find(bad, 'yaml/invalid')?.line).toBeGreaterThanOrEqual(3);
    expect(codes(one({ 'x/SKILL.md': '---\n- a\n- b\n---\n' }))).toContain('frontmatter/not-mapping');
  });

  it('validates metadata fields and annotations', () => {
    // `$` annotations make it an agent-apps skill: its rules (role, tags) apply
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nmetadata:\n  role: boss\n  visibility: public\n  tags: 5\n  $bogus: 1\n  config:\n    $inherit: true\n  version: "1.0"') });
    expect(codes(m).sort()).toEqual(['metadata/nested-annotation', 'metadata/role-invalid', 'metadata/tags-invalid', 'metadata/unknown-annotation', 'metadata/visibility-invalid', 'version/not-semver']);
    // "1.0" is read as 1.0.0, with the warning
    expect(m.version).toBe('1.0.0');
    expect(find(m, 'version/not-semver')?.message).toMatch(/read as 1\.0\.0/);
  });

  it('a plain SKILL.md (not agent-apps) keeps visibility and other registry fields as metadata, and reads a short version', () => {
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nvisibility: public\nversion: "1.10"\nmetadata:\n  owner: me') });
    expect(codes(m)).toEqual(['version/not-semver']);
    expect(find(m, 'version/not-semver')?.message).toMatch(/read as 1\.10\.0/);
    expect(m.version).toBe('1.10.0');
    expect(m.metadata).toMatchObject({ visibility: 'public', owner: 'me' });
    // unquoted, YAML has already turned 1.10 into 1.1 (and 0x10 into 16): no guess
    for (const written of ['1.10', '0x10', '2']) {
      const n = one({ 'x/SKILL.md': skillMd(`name: x\ndescription: y\nversion: ${written}`) });
      expect(n.version).toBeNull();
      expect(find(n, 'version/not-semver')?.message).toMatch(/YAML number .* write it in quotes/);
    }
    expect(one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nversion: "99999999999999999999.1"') }).version).toBeNull();
    const bad = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y\nmetadata:\n  version: next') });
    expect(bad.version).toBeNull();
    expect(find(bad, 'version/not-semver')?.message).not.toMatch(/read as/);
  });

  it('warns about a too-long description and caps instructions', () => {
    const m = one({ 'x/SKILL.md': skillMd(`name: x\ndescription: ${'a'.repeat(1100)}`, 'b'.repeat(300 * 1024)) });
    expect(codes(m)).toEqual(['skill/description-too-long', 'skill/instructions-too-large']);
    expect(m.instructions!.length).toBe(256 * 1024);
  });

  it('reports tools.json rules', () => {
    const bad = (json: string) => one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': json });
    expect(codes(bad('{"name": "a"}'))).toEqual(['tools/not-skill-tools']);
    expect(find(bad('[\n  {"name": "a",\n   "description": }\n]'), 'tools/invalid-json')?.line).toBe(3);
    expect(codes(bad('[1]'))).toEqual(['tool/not-object']);
    expect(codes(bad('[{"description": "d"}]'))).toEqual(['tool/name-missing']);
    expect(codes(bad('[{"name": "Bad Name", "description": "d"}]'))).toEqual(['tool/name-invalid']);
    expect(codes(bad('[{"name": "a-b", "description": "d"}]'))).toEqual(['tool/name-not-skill-tools']);
    expect(codes(bad('[{"name": "a"}]'))).toEqual(['tool/description-missing']);
    const dup = bad('[{"name": "a_b", "description": "d"},\n{"name": "a-b", "description": "d"}]');
    expect(find(dup, 'tool/duplicate-name')).toMatchObject({ path: '/1/name', line: 2 });
    expect(codes(bad('[{"name": "a", "description": "d", "script": "scripts/missing.js"}]'))).toEqual(['tool/script-missing']);
    expect(codes(bad('[{"name": "a", "description": "d", "script": "../../etc/passwd"}]'))).toEqual(['path/outside-package']);
    expect(codes(bad('[{"name": "a", "description": "d", "parameters": []}]'))).toEqual(['tool/parameters-invalid']);
    expect(codes(bad('[{"name": "a", "description": "d", "parameters": {"p": {"type": "text"}}}]')).sort()).toEqual(['param/description-missing', 'param/type-invalid', 'schema/type-invalid']);
    expect(codes(bad('[{"name": "a", "description": "d", "parameters": {"p": {"description": "x"}}}]'))).toEqual(['param/type-missing']);
    expect(codes(bad('[{"name": "a", "description": "d", "parameters": {"p": {"type": "string", "description": "x", "enum": []}}}]'))).toEqual(['schema/enum-empty']);
    expect(codes(bad('[{"name": "a", "description": "d", "parameters": {"p": {"type": "string", "description": "x", "optional": "yes"}}}]'))).toEqual(['param/optional-invalid']);
  });

  it('a tool without script has handler none; a handler must export default', () => {
    const m = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': '[{"name": "a", "description": "d"}]' });
    expect(m.tools[0].handler).toEqual({ kind: 'none', ref: null });
    const n = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': '[{"name": "a", "description": "d", "script": "s.js"}]', 'x/s.js': 'export function a() {}' });
    expect(find(n, 'tool/handler-no-default-export')).toMatchObject({ file: 'x/s.js', severity: 'error' });
    const p = one({ 'x/SKILL.md': skillMd('name: x\ndescription: y'), 'x/tools.json': '[{"name": "a", "description": "d", "script": "s.py"}]', 'x/s.py': 'def handler(args):\n    return 1\n' });
    expect(p.tools[0].handler).toEqual({ kind: 'python', ref: 's.py' });
    expect(p.diagnostics).toEqual([]);
  });

  it('an MCP tool list beside a SKILL.md is read as one, with its schemas', () => {
    const weather = { name: 'get_weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, outputSchema: { type: 'object', properties: { tempC: { type: 'number' } } } };
    const ping = { name: 'ping.v2', title: 'Ping the server', inputSchema: { type: 'object' } };
    const withMd = (toolsJson: unknown) => one({ 'weather/SKILL.md': skillMd('name: weather\ndescription: Weather tools.\nmetadata:\n  author: me'), 'weather/tools.json': JSON.stringify(toolsJson) });
    for (const m of [withMd({ tools: [weather, ping] }), withMd([weather, ping])]) {
      expect(m.format).toBe('agent-skill');
      expect(m.diagnostics).toEqual([]);
      expect(m.metadata).toEqual({ author: 'me', toolsFormat: 'mcp' });
      expect(m.tools.map((t) => [t.name, t.sourceName, t.description, t.handler, t.capabilities])).toEqual([
        ['get-weather', 'get_weather', 'Current weather', { kind: 'mcp', ref: 'weather#get_weather' }, ['net']],
        ['ping-v2', 'ping.v2', 'Ping the server', { kind: 'mcp', ref: 'weather#ping.v2' }, ['net']],
      ]);
      expect(m.tools[0].params).toEqual(weather.inputSchema);
      expect(m.tools[0].returns).toEqual(weather.outputSchema);
    }
    // a broken schema in an MCP list is reported where it is written
    const bad = withMd({ tools: [{ ...weather, inputSchema: { type: 'object', properties: { city: { type: 'text' } } } }] });
    expect(find(bad, 'schema/type-invalid')).toMatchObject({ file: 'weather/tools.json', path: '/tools/0/inputSchema/properties/city/type' });
    // a Skill Tools entry that spells its schema inputSchema beside a script stays Skill Tools
    const st = one({
      'x/SKILL.md': skillMd('name: x\ndescription: y'),
      'x/tools.json': JSON.stringify([{ name: 'a', description: 'd', script: 's.js', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }]),
      'x/s.js': 'export default async (args) => args.q;',
    });
    expect(st.diagnostics).toEqual([]);
    expect(st.metadata).toEqual({});
    expect(st.tools[0]).toMatchObject({ handler: { kind: 'js', ref: 's.js' }, params: { properties: { q: { type: 'string' } } } });
  });

  it('a delegating SKILL.md is itself a tool (role context by default)', () => {
    const m = one({
      'x/SKILL.md': skillMd('name: x\ndescription: y\nmetadata:\n  delegate: ./lib/run.js\n  params:\n    type: object\n    properties:\n      q: { type: string }'),
      'x/lib/run.js': 'export default async (ctx, args) => args.q;',
    });
    expect(m.tools[0]).toMatchObject({ name: 'x', role: 'context', handler: { kind: 'js', ref: 'lib/run.js' }, params: { type: 'object' } });
    expect(m.diagnostics).toEqual([]);
  });

  it('reads nested skills as separate packages', () => {
    const r = read({ 'a/SKILL.md': skillMd('name: a\ndescription: y'), 'a/b/SKILL.md': skillMd('name: b\ndescription: z'), 'a/b/notes.txt': 'x' });
    expect(r.skills.map((s) => [s.name, s.files])).toEqual([
      ['a', ['SKILL.md']],
      ['b', ['SKILL.md', 'notes.txt']],
    ]);
  });
});
