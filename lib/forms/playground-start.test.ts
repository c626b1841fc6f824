import { describe, expect, it } from 'vitest';
import { playgroundStart, scriptToTurns, turnsToScript } from './playground-start';

const countWords = { name: 'count-words', params: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } }, runnable: true, gated: false };

describe('playgroundStart', () => {
  it('starts from the skill’s own tool with an example call, and finishes with what the tool returned', () => {
    const start = playgroundStart('@skillyard/text-stats', [{ ...countWords, example: { text: 'Hello there' } }]);
    expect(start.tool).toBe('count-words');
    expect(start.task).toContain('count-words');
    // a second turn, without code, only runs when the call failed
    expect(start.turns).toHaveLength(2);
    expect(start.turns[1].code).toBe('');
    expect(start.turns[0].code).toContain(`const result = await ctx.invoke('count-words', {\n    "text": "Hello there"\n  });\nctx.finish(result);`);
    // never a finish with nothing after a failed call: a failed call throws before the finish
    expect(start.turns[0].code).not.toContain('finish(null)');
    expect(start.turns[0].code).not.toContain('memory.result');
    // nothing of the demo skill is left over
    expect(JSON.stringify(start)).not.toContain('slugify');
  });

  it('prefers a runnable, ungated tool', () => {
    const gated = { ...countWords, name: 'list-repos', gated: true };
    const mcp = { ...countWords, name: 'remote', runnable: false };
    expect(playgroundStart('@a/b', [mcp, gated, countWords]).tool).toBe('count-words');
    expect(playgroundStart('@a/b', [mcp, gated]).tool).toBe('list-repos');
  });

  it('says in the script what unlocks a locked tool', () => {
    const gated = { ...countWords, name: 'list-repos', gated: true, unlock: 'connect GitHub' };
    expect(playgroundStart('@a/b', [gated]).turns[0].text).toContain('locked for you (connect GitHub)');
  });

  it('gives an instruction-only skill a script that finishes without calling a tool', () => {
    const start = playgroundStart('@a/notes', []);
    expect(start.tool).toBeNull();
    expect(start.turns).toHaveLength(1);
    expect(start.turns[0].code).toContain('ctx.finish');
  });
});

describe('turnsToScript / scriptToTurns', () => {
  it('round-trips, dropping empty turns and using bare strings for code-only turns', () => {
    const turns = [
      { text: '', code: 'return 1;' },
      { text: 'hi', code: '' },
      { text: '', code: '  ' },
      { text: 'x', code: 'ctx.finish(1);' },
    ];
    const script = turnsToScript(turns);
    expect(script).toEqual(['return 1;', { text: 'hi' }, { text: 'x', code: 'ctx.finish(1);' }]);
    expect(scriptToTurns(script)).toEqual([turns[0], turns[1], turns[3]]);
  });
});
