import { afterAll, describe, expect, it } from 'vitest';
import { parseDelegate } from './delegates';
import { createFakeSandbox } from './testing/fake-sandbox';
import { closeSharedSandbox, createManager, sharedInProcessSandbox } from './testing/harness';
import { skill, tool } from './testing/skills';

afterAll(closeSharedSandbox);
const sb = () => sharedInProcessSandbox();
const obj = { type: 'object' };

describe('handler calling conventions (each seed format runs unchanged)', () => {
  it('agent-apps (code skill): default export (ctx, args), TypeScript transpiled', async () => {
    const s = skill('validate', [tool('validate', { params: obj, handler: { kind: 'ts', ref: 'validate.skill.ts' } })], {
      files: {
        'validate.skill.ts': `export const frontmatter = { name: 'validate' };
          type Args = { title?: string };
          export default async function (ctx: { tool: { name: string } }, { title }: Args) {
            if (!title) return { error: 'INVALID', message: 'Title required' };
            return { valid: true, by: ctx.tool.name };
          }`,
      },
    });
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('validate', { title: 'x' })).toEqual({ valid: true, by: 'validate' });
    expect(await manager.invoke('validate', {})).toEqual({ error: 'INVALID', message: 'Title required' });
  });

  it('Skill Tools (tools.json script): default export (args) with __workDir', async () => {
    const s = skill('count-words', [tool('count-words', { sourceName: 'count_words', params: obj, handler: { kind: 'js', ref: 'scripts/count_words.js' } })], {
      format: 'agent-skill',
      files: {
        'scripts/count_words.js': `export default async function handler(args) {
          const { text, __workDir } = args;
          return { count: text.trim().split(/\\s+/).filter(Boolean).length, workDir: __workDir };
        }`,
      },
    });
    const { manager } = createManager(sb(), [s], { workDir: '/srv/ws' });
    expect(await manager.invoke('count_words', { text: 'one two  three' })).toEqual({ count: 3, workDir: '/srv/ws' });
  });

  it('a folder skill delegate (tool named after the skill) uses agent-apps', async () => {
    const s = skill('api-create', [tool('api-create', { role: 'context', params: obj, handler: { kind: 'js', ref: 'lib/handler.js' } })], {
      format: 'agent-skill',
      files: { 'lib/handler.js': 'export default async (ctx, { n }) => ({ n, tool: ctx.tool.name })' },
      over: { metadata: { delegate: './lib/handler.js' } },
    });
    expect(await createManager(sb(), [s]).manager.invoke('api-create', { n: 1 })).toEqual({ n: 1, tool: 'api-create' });
  });

  it('malv: named default export (input, capabilities)', async () => {
    const s = skill(
      'notes',
      [tool('create-note', { sourceName: 'create_note', capabilities: ['storage'], params: obj, handler: { kind: 'ts', ref: 'src/tools/create_note.ts' } })],
      {
        format: 'malv',
        files: {
          'src/tools/create_note.ts': `import { Input, Output, Capabilities } from './types/create_note.js';
          export default async function create_note(input: Input, capabilities: Capabilities): Promise<Output> {
            const storage = capabilities.storage.use('@my-org/notes');
            const noteId = 'n-' + input.title;
            await storage.put(\`/notes/\${noteId}.json\`, { title: input.title, content: input.content });
            return { noteId, success: true, stored: await storage.get(\`/notes/\${noteId}.json\`) };
          }`,
        },
      },
    );
    expect(await createManager(sb(), [s]).manager.invoke('create_note', { title: 'a', content: 'b' })).toEqual({
      noteId: 'n-a',
      success: true,
      stored: { title: 'a', content: 'b' },
    });
  });

  it('Rye JS/TS: default main(params); exported execute(params, project_path); success:false is a failure', async () => {
    const s = skill(
      'rye',
      [
        tool('hello-node', { params: obj, handler: { kind: 'ts', ref: '.ai/tools/utility/hello_node.ts' } }),
        tool('exec', { params: obj, handler: { kind: 'js', ref: '.ai/tools/x/exec.js' } }),
        tool('fails', { params: obj, handler: { kind: 'js', ref: '.ai/tools/x/fails.js' } }),
      ],
      {
        format: 'rye',
        files: {
          '.ai/tools/utility/hello_node.ts': `// rye:signed:T:H:S:K
            export const __version__ = "1.0.0";
            export const CONFIG_SCHEMA = { type: "object" };
            function main(params: Record<string, unknown>) { return { success: true, output: \`Hello, \${params.name}!\` }; }
            export default main;`,
          '.ai/tools/x/exec.js': 'export function execute(params, projectPath) { return { success: true, data: params.x, projectPath }; }',
          '.ai/tools/x/fails.js': 'export default () => ({ success: false, error: "disk full" })',
        },
      },
    );
    const { manager } = createManager(sb(), [s], { workDir: '/proj' });
    expect(await manager.invoke('hello-node', { name: 'Ada' })).toEqual({ success: true, output: 'Hello, Ada!' });
    expect(await manager.invoke('exec', { x: 1 })).toEqual({ success: true, data: 1, projectPath: '/proj' });
    await expect(manager.invoke('fails', {})).rejects.toMatchObject({ code: 'tool/failed', message: "'rye/fails' failed: disk full" });
  });

  it('relative imports of package files are bundled (.js specifiers find .ts files); escapes are refused', async () => {
    const s = skill(
      'pkg',
      [tool('use-helper', { params: obj, handler: { kind: 'ts', ref: 'src/tools/use_helper.ts' } }), tool('escape', { handler: { kind: 'js', ref: 'src/esc.js' } })],
      {
        format: 'malv',
        files: {
          'src/tools/use_helper.ts':
            "import { shout } from './lib/text.js';\nimport data from '../data.json';\nexport default async (input: { w: string }) => shout(input.w) + data.suffix;",
          'src/tools/lib/text.ts': 'export const shout = (s: string): string => s.toUpperCase();',
          'src/data.json': '{ "suffix": "!" }',
          'src/esc.js': "import x from '../../outside.js'; export default () => x;",
        },
      },
    );
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('use-helper', { w: 'hi' })).toBe('HI!');
    await expect(manager.invoke('escape')).rejects.toMatchObject({ code: 'runtime/compile-error', message: expect.stringContaining('outside the package') });
  });

  it('a module without a matching export says so', async () => {
    const s = skill('x', [tool('x', { handler: { kind: 'js', ref: 'x.js' } })], { files: { 'x.js': 'export const y = 1;' } });
    await expect(createManager(sb(), [s]).manager.invoke('x')).rejects.toMatchObject({ code: 'tool/no-handler' });
  });

  it('a syntax error is runtime/compile-error; an import is refused clearly', async () => {
    const s = skill('x', [tool('bad', { handler: { kind: 'js', ref: 'bad.js' } }), tool('imp', { handler: { kind: 'js', ref: 'imp.js' } })], {
      files: { 'bad.js': 'export default async () => {', 'imp.js': "import fs from 'node:fs'; export default async () => fs.readFileSync('/etc/passwd', 'utf8')" },
    });
    const { manager } = createManager(sb(), [s]);
    await expect(manager.invoke('bad')).rejects.toMatchObject({ code: 'runtime/compile-error' });
    await expect(manager.invoke('imp')).rejects.toMatchObject({ message: expect.stringContaining('imports are not available in the sandbox (tried to import "node:fs")') });
  });
});

describe('delegates', () => {
  const code = 'inline://code,export default async function(ctx, { name }) { return `Hello, ${name}!`; }';
  it('inline://code runs in the sandbox and is compiled once per ref', async () => {
    const fake = createFakeSandbox();
    const s = skill('greet', [tool('greet', { params: obj, handler: { kind: 'inline-code', ref: code } })], { format: 'skill-md' });
    const { manager } = createManager(fake, [s]);
    expect(await manager.invoke('greet', { name: 'Ada' })).toBe('Hello, Ada!');
    expect(await manager.invoke('greet', { name: 'Bo' })).toBe('Hello, Bo!');
    expect(fake.jobs).toHaveLength(2);
    expect(fake.jobs[0].source).toBe(fake.jobs[1].source);
    expect(fake.jobs[0]).toMatchObject({ entry: '__skillyard_entry', hostMethods: ['invoke', 'next'] });
    expect(fake.jobs[0].key).toMatch(/^user:u1\|greet\/greet\|[0-9a-f]{16}$/);
  });
  it('inline://base64 decodes recursively', async () => {
    const once = 'inline://base64,' + Buffer.from(code).toString('base64');
    const twice = 'inline://base64,' + Buffer.from(once).toString('base64');
    expect(parseDelegate(twice)).toMatchObject({ kind: 'code', ref: twice });
    const s = skill('greet', [tool('greet', { params: obj, handler: { kind: 'inline-code', ref: twice } })], { format: 'skill-md' });
    expect(await createManager(sb(), [s]).manager.invoke('greet', { name: 'Cy' })).toBe('Hello, Cy!');
    expect(() => parseDelegate('inline://base64,' + Buffer.from('plain text').toString('base64'))).toThrow(/must decode to another inline/);
  });
  it('inline://markdown is a context tool returning the markdown body', async () => {
    const s = skill('x', [tool('x', { role: 'context', handler: { kind: 'markdown', ref: 'inline://markdown,---\nname: x\n---\nDo the thing.' } })], { format: 'skill-md' });
    expect(await createManager(sb(), [s]).manager.invoke('x')).toBe('Do the thing.');
  });
  it('a .skill.md markdown tool returns its instructions; a tool without a handler returns a stub', async () => {
    const s = skill('guide', [tool('guide', { handler: { kind: 'markdown', ref: 'guide.skill.md' } }), tool('stub', {})], {
      format: 'skill-md',
      over: { instructions: '# Guide\nStep one.' },
    });
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('guide')).toBe('# Guide\nStep one.');
    expect(await manager.invoke('stub')).toEqual({ message: "Tool 'stub' has no handler; load skill 'guide' and follow its instructions.", instructions: '# Guide\nStep one.' });
  });
  it('a markdown tool with a returns schema (the answer its instructions ask for) still returns its instructions', async () => {
    const returns = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'] };
    const s = skill(
      'critic',
      [
        tool('critic', { returns, handler: { kind: 'markdown', ref: 'critic.skill.md' } }),
        tool('coded', { returns, handler: { kind: 'inline-code', ref: 'inline://code,export default () => "not an object";' } }),
      ],
      {
        format: 'skill-md',
        over: { instructions: 'Review it.' },
      },
    );
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('critic')).toBe('Review it.');
    // code handlers are still held to their returns schema
    await expect(manager.invoke('coded')).rejects.toMatchObject({ code: 'returns/invalid' });
  });
  it('an MCP tool whose server the package does not define is refused, naming the server', async () => {
    const s = skill('m', [tool('q', { handler: { kind: 'mcp', ref: 'mcp/servers/context7#query-docs' } })], { format: 'rye' });
    await expect(createManager(sb(), [s]).manager.invoke('q')).rejects.toMatchObject({
      code: 'runtime/unsupported-handler',
      message: expect.stringContaining('mcp/servers/context7'),
    });
  });
});
