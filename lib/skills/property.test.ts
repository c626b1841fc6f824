import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readArchive } from './archive';
import { parsePythonModule } from './python-literal';
import { readSkillsFromFiles } from './read';
import { parseTsModule } from './ts-literal';
import type { SkillManifest } from './types';

const enc = new TextEncoder();

const VALID_SKILL = '---\nname: demo\ndescription: A demo skill.\nmetadata:\n  tags: [a]\n  params:\n    type: object\n    properties:\n      q: { type: string, enum: [x, y] }\n---\nBody.\n';
const VALID_TOOLS = JSON.stringify([{ name: 'count_words', description: 'Count', script: 'scripts/c.js', parameters: { text: { type: 'string', description: 't' } } }]);
const VALID_PY = '"""Doc."""\n__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "x"\n__category__ = "c"\n__tool_description__ = "d"\nCONFIG_SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}}\ndef execute(p, q):\n    return {"success": True}\n';
const VALID_YAML = 'tool_id: t\ntool_type: yaml\nversion: 1.0.0\nexecutor_id: x\ncategory: c\ndescription: d\nparameters:\n  - name: a\n    type: string\n    required: true\n';
const VALID_TS = "export const frontmatter = { name: 'x', description: 'd', metadata: { params: { type: 'object' } } };\nexport default async () => 1;\n";

/** Mutations that keep most of the structure: the interesting inputs for a parser. */
const mutate = (base: string) =>
  fc.oneof(
    fc.tuple(fc.nat(base.length), fc.nat(40), fc.string({ unit: 'binary', maxLength: 30 })).map(([at, del, ins]) => base.slice(0, at) + ins + base.slice(at + del)),
    fc.nat(base.length).map((n) => base.slice(0, n)),
    fc.constantFrom('{', '[', '"', "'", '"""', '---', '&a', '*a', '\0', '\\', '${', '`', '\n', ':', '- ', '#').chain((tok) => fc.nat(base.length).map((at) => base.slice(0, at) + tok + base.slice(at))),
  );

function assertManifest(m: SkillManifest) {
  expect(typeof m.name).toBe('string');
  expect(Array.isArray(m.tools)).toBe(true);
  for (const t of m.tools) expect(t.name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  for (const d of m.diagnostics) {
    expect(['error', 'warning', 'note']).toContain(d.severity);
    expect(d.code).toMatch(/^[a-z]+\/[a-z0-9-]+$/);
  }
  expect(() => JSON.stringify(m)).not.toThrow();
}

describe('the reader never throws', () => {
  it('on random and mutated packages of every format', () => {
    fc.assert(
      fc.property(
        mutate(VALID_SKILL),
        mutate(VALID_TOOLS),
        mutate(VALID_PY),
        mutate(VALID_YAML),
        mutate(VALID_TS),
        fc.string({ maxLength: 50 }),
        (skill, tools, py, yaml, ts, junk) => {
          const res = readSkillsFromFiles([
            { path: 'demo/SKILL.md', content: enc.encode(skill) },
            { path: 'demo/tools.json', content: enc.encode(tools) },
            { path: 'demo/scripts/c.js', content: enc.encode(ts) },
            { path: 'r/.ai/tools/c/t.py', content: enc.encode(py) },
            { path: 'r/.ai/tools/c/u.yaml', content: enc.encode(yaml) },
            { path: 'm/tools.json', content: enc.encode(tools.replace(/parameters/g, 'input_schema')) },
            { path: 'x.skill.ts', content: enc.encode(ts) },
            { path: 'y.skill.md', content: enc.encode(skill.replace('name: demo', 'name: y')) },
            { path: `${junk}/z.skill.md`, content: enc.encode(junk) },
          ]);
          expect(res.skills.length).toBeGreaterThanOrEqual(5);
          res.skills.forEach(assertManifest);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('on arbitrary bytes and arbitrary paths', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ path: fc.string({ maxLength: 30 }), content: fc.uint8Array({ maxLength: 200 }) }), { maxLength: 8 }), (files) => {
        const res = readSkillsFromFiles(files.map((f) => ({ ...f, path: f.path + (f.path.length % 2 ? '.skill.md' : '/SKILL.md') })));
        res.skills.forEach(assertManifest);
      }),
      { numRuns: 150 },
    );
  });

  it('on arbitrary JSON values as frontmatter, tools.json and schemas', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.jsonValue({ maxDepth: 6 }), (a, b) => {
        const fm = `---\n${JSON.stringify({ name: 'demo', description: 'd', metadata: { params: a, returns: b, delegate: typeof a === 'string' ? a : undefined } })}\n---\n`;
        const res = readSkillsFromFiles([
          { path: 'demo/SKILL.md', content: enc.encode(fm) },
          { path: 'demo/tools.json', content: enc.encode(JSON.stringify([a, { name: 'n', description: 'd', parameters: b, input_tokens: a, output_tokens: b }])) },
        ]);
        res.skills.forEach(assertManifest);
      }),
      { numRuns: 200 },
    );
  });

  it('the literal parsers and the archive reader never throw', () => {
    fc.assert(
      fc.property(mutate(VALID_PY), mutate(VALID_TS), fc.uint8Array({ maxLength: 600 }), (py, ts, bytes) => {
        parsePythonModule(py, { maxDepth: 64 });
        parseTsModule(ts, 'x.ts', { maxDepth: 64 });
        const withMagic = [new Uint8Array([0x50, 0x4b, 3, 4]), new Uint8Array([0x1f, 0x8b]), new Uint8Array()][bytes.length % 3];
        const buf = new Uint8Array(withMagic.length + bytes.length);
        buf.set(withMagic);
        buf.set(bytes, withMagic.length);
        const r = readArchive(buf);
        expect(Array.isArray(r.diagnostics)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the reader\'s cheap compile check agrees with a real Ajv compile', () => {
  const leaf = fc.oneof(
    fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array', 'bogus') }),
    fc.record({ $ref: fc.constantFrom('#/$defs/a', '#/$defs/missing', '#/properties/x', '#', '#/$defs/a~1b', '#/definitions/d') }),
    fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) }),
    fc.record({ type: fc.constant('string'), minLength: fc.oneof(fc.nat(5), fc.constant(-1), fc.constant('x')) }),
    fc.record({ items: fc.oneof(fc.constant({ type: 'string' }), fc.constant([{ type: 'string' }]), fc.constant(true)) }),
    fc.record({ required: fc.oneof(fc.constant(['x']), fc.constant('x'), fc.constant([1])) }),
  );
  const schemaArb = fc.record(
    {
      type: fc.constant('object'),
      properties: fc.dictionary(fc.constantFrom('x', 'y', 'a/b'), leaf, { maxKeys: 3 }),
      $defs: fc.dictionary(fc.constantFrom('a', 'b', 'a/b'), leaf, { maxKeys: 2 }),
      definitions: fc.dictionary(fc.constantFrom('d'), leaf, { maxKeys: 1 }),
      additionalProperties: fc.oneof(fc.boolean(), leaf),
      $schema: fc.constantFrom('https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#'),
    },
    { requiredKeys: ['type'] },
  );

  it('for generated schemas', async () => {
    const { schemaCompileError, fullCompileError, schemaDraft } = await import('./schema');
    fc.assert(
      fc.property(schemaArb, (s) => {
        const draft = schemaDraft(s) as '2020-12' | 'draft-07';
        expect(schemaCompileError(s, draft) === null).toBe(fullCompileError(s, draft) === null);
      }),
      { numRuns: 500 },
    );
  });
});
