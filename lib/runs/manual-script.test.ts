import { describe, expect, it } from 'vitest';
import { scriptFromTrace } from './manual-script';

const call = (turnNumber: number, code: string) => ({ type: 'tool-call', data: { turnNumber, via: 'model', tool: 'invoke', args: { code } } });

describe('scriptFromTrace', () => {
  it('turns each manual turn back into its text and code, in turn order', () => {
    const events = [
      { type: 'turn-start', data: { turnNumber: 1 } },
      call(1, "return await ctx.invoke('slugify', { text: 'A b' });"),
      { type: 'tool-call', data: { turnNumber: 1, via: 'code', tool: 'slugify', args: { text: 'A b' } } },
      { type: 'agent-message', data: { turnNumber: 1, text: 'Slugging it.' } },
      call(3, 'ctx.finish(1);'),
      { type: 'agent-message', data: { turnNumber: 2, text: 'Thinking aloud.' } },
      { type: 'run-end', data: { status: 'succeeded' } },
    ];
    expect(scriptFromTrace(events)).toEqual([
      { text: 'Slugging it.', code: "return await ctx.invoke('slugify', { text: 'A b' });" },
      { text: 'Thinking aloud.' },
      'ctx.finish(1);',
    ]);
  });

  it('gives nothing for a run no one wrote a turn for', () => {
    expect(scriptFromTrace([{ type: 'awaiting-input', data: { turnNumber: 1 } }])).toEqual([]);
  });
});
