// `skillyard agent` (cli/commands/agent.ts) end to end with the scripted provider.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from './agent';

const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, 'words'));
writeFileSync(
  path.join(dir, 'words', 'count-words.skill.js'),
  `export const frontmatter = { name: 'count-words', description: 'Count words',
     metadata: { params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } } };
   export default async function (ctx, { text }) { return { count: text.split(/\\s+/).filter(Boolean).length }; }`,
);
writeFileSync(
  path.join(dir, 'turns.json'),
  JSON.stringify([{ text: 'Counting.', code: 'memory.n = (await ctx.invoke("count-words", { text: "a b c d" })).count; return memory.n;' }, 'ctx.finish({ count: memory.n })']),
);

function capture() {
  const io = { stdout: '', stderr: '', out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
  return io;
}

describe('skillyard agent', () => {
  it('prints JSON lines, one event per line, then the result', async () => {
    const io = capture();
    const code = await run(['--skill', path.join(dir, 'words'), '--provider', 'scripted', '--script', path.join(dir, 'turns.json'), '--json', 'count', 'words'], io);
    expect(io.stderr).toBe('');
    expect(code).toBe(0);
    const lines = io.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'agent-start', provider: 'scripted', mode: 'discovery' });
    expect(lines.find((l) => l.type === 'tool-result' && l.via === 'code')).toMatchObject({ tool: 'count-words', result: { count: 4 } });
    expect(lines.at(-2)).toMatchObject({ type: 'agent-complete', result: { count: 4 } });
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'completed', result: { count: 4 }, provider: 'scripted', memory: { n: 4 } });
  });

  it('prints a readable trace labelled scripted, in constrained mode with --allowed-tools', async () => {
    const io = capture();
    const code = await run(['--skill', path.join(dir, 'words'), '--provider', 'scripted', '--script', path.join(dir, 'turns.json'), '--allowed-tools', 'count-words', 'count'], io);
    expect(code).toBe(0);
    expect(io.stdout).toContain('[scripted] agent started: provider scripted, constrained mode, tools: count-words');
    expect(io.stdout).toContain('  ↳ count-words {"text":"a b c d"}');
    expect(io.stdout).toContain('[scripted] ✔ result: {"count":4} (2 turns, 2 steps)');
  });

  it('usage errors exit 2', async () => {
    expect(await run(['--provider', 'scripted', 'task'], capture())).toBe(2);
    expect(await run(['--provider', 'nope', 'task'], capture())).toBe(2);
    expect(await run(['--provider', 'scripted', '--script', path.join(dir, 'turns.json')], capture())).toBe(2);
    expect(await run(['--bogus'], capture())).toBe(2);
  });
});
