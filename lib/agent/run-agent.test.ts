import { afterAll, describe, expect, it } from 'vitest';
import { createManualProvider } from './providers/manual';
import { createScriptedProvider, type ScriptTurn } from './providers/scripted';
import { runAgent } from './run-agent';
import { fakeSandbox, recording, tool, toolHost } from './testing/fixtures';
import { createWorkerSandbox } from './testing/worker-sandbox';
import type { AgentEvent, RunAgentOptions } from './types';

const sandbox = createWorkerSandbox();
afterAll(() => sandbox.close());

const words = (a: { text: string }) => ({ count: a.text.split(/\s+/).filter(Boolean).length });

function run(turns: ScriptTurn[], extra: Partial<RunAgentOptions> = {}) {
  const provider = recording(createScriptedProvider(turns));
  const host = toolHost({ 'count-words': words, echo: (a) => a });
  const events: AgentEvent[] = [];
  const p = runAgent({ task: 'do it', provider, tools: host, sandbox, onEvent: (e) => events.push(e), ...extra });
  return { p, provider, host, events };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type);
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('runAgent: the loop', () => {
  it('runs agent code in the isolate, calls tools, finishes, and traces every step', async () => {
    const { p, events, host } = run([
      { text: 'Counting.', code: 'const r = await ctx.invoke("count-words", { text: "a b c" }); console.log("got", r.count); return r;' },
      'ctx.finish({ total: 3 })',
    ]);
    const res = await p;
    expect(res).toMatchObject({ status: 'completed', result: { total: 3 }, finished: true, turns: 2, steps: 2, provider: 'scripted', error: null });
    expect(host.calls).toEqual([{ ref: 'count-words', args: { text: 'a b c' } }]);
    expect(types(events)).toEqual([
      'agent-start',
      'turn-start',
      'message',
      'tool-call', // invoke (model)
      'tool-call', // count-words (code)
      'tool-result',
      'tool-result',
      'agent-message',
      'turn-end',
      'turn-start',
      'tool-call',
      'tool-result',
      'turn-end',
      'agent-complete',
    ]);
    const results = of(events, 'tool-result');
    expect(results[0]).toMatchObject({ tool: 'count-words', via: 'code', result: { count: 3 } });
    expect(results[1]).toMatchObject({ tool: 'invoke', via: 'model', result: { count: 3 }, logs: ['got 3'] });
    expect(of(events, 'message')[0]).toMatchObject({ text: 'Counting.', delta: false, turnNumber: 1 });
    expect(events.every((e) => e.provider === 'scripted' && typeof e.timestamp === 'number')).toBe(true);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(res.trace).toEqual(events);
  });

  it('feeds tool results back to the model and ends on a text-only turn', async () => {
    const { p, provider } = run(['return 6 * 7', { text: 'The answer is 42.' }]);
    const res = await p;
    expect(res).toMatchObject({ status: 'completed', result: 'The answer is 42.', finished: false, text: 'The answer is 42.' });
    const second = provider.requests[1].messages;
    expect(second[second.length - 1]).toEqual({ role: 'tool', toolCallId: 'call_1', name: 'invoke', content: '{"ok":true,"result":42}', isError: false });
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(['invoke']);
  });

  it('keeps memory across turns, seeded from the memory option', async () => {
    const { p } = run(['memory.count = (memory.count ?? 0) + 1; memory.seen = [memory.seed];', 'memory.count += 1; return memory.count;', 'ctx.finish(memory)'], {
      memory: { seed: 'planted', count: 10 },
    });
    const res = await p;
    expect(res.result).toEqual({ seed: 'planted', count: 12, seen: ['planted'] });
    expect(res.memory).toEqual({ seed: 'planted', count: 12, seen: ['planted'] });
  });

  it('refuses URIs and paths from agent code and tells the model why', async () => {
    const { p, provider, events, host } = run([
      'return await ctx.invoke("inline://code,export default () => 1")',
      'try { await ctx.manager.invoke("../skills/x.js") } catch (e) { return e.message }',
      { text: 'ok' },
    ]);
    const res = await p;
    expect(res.status).toBe('completed');
    expect(host.calls).toEqual([]);
    const err = of(events, 'tool-error')[0];
    expect(err).toMatchObject({ tool: 'invoke', via: 'model' });
    expect(err.error.message).toContain('ctx.invoke refused "inline://code,export default () => 1"');
    const fed = provider.requests[1].messages.at(-1);
    expect(fed).toMatchObject({ role: 'tool', isError: true });
    expect((fed as { content: string }).content).toContain('only bare tool names matching ^[a-z0-9][a-z0-9-]*$');
    const caught = of(events, 'tool-result')[0];
    expect(caught.result).toBe('ctx.invoke refused "../skills/x.js": agent code may call only bare tool names matching ^[a-z0-9][a-z0-9-]*$ (no URIs, no paths)');
  });

  it('maxSteps: the extra invoke gets an error, then the turn ends with an agent-error', async () => {
    const { p, events, provider } = run(['return 1', 'return 2', 'return 3'], { maxSteps: 2 });
    const res = await p;
    expect(res).toMatchObject({ status: 'failed', steps: 2, turns: 3, error: { code: 'agent/max-steps' } });
    expect(of(events, 'tool-error')[0]).toMatchObject({ turnNumber: 3, error: { code: 'agent/max-steps' } });
    expect(of(events, 'agent-error')).toHaveLength(1);
    expect(of(events, 'agent-error')[0].error.message).toBe('the agent used all 2 steps (invoke calls) without finishing');
    expect(types(events).at(-1)).toBe('agent-error');
    expect(provider.requests).toHaveLength(3);
  });

  it('maxTurns: stops with agent/max-turns after that many model round trips', async () => {
    const { p, provider } = run(['return 1', 'return 2', 'return 3', 'return 4'], { maxTurns: 2 });
    const res = await p;
    expect(res).toMatchObject({ status: 'failed', turns: 2, error: { code: 'agent/max-turns' } });
    expect(provider.requests).toHaveLength(2);
  });

  it('returns: a prose answer gets a reminder turn, a bad finish is rejected, a valid one ends the run', async () => {
    const returns = { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] };
    const { p, provider, events } = run([{ text: 'There are 3 words.' }, 'ctx.finish({ count: "three" })', 'ctx.finish({ count: 3 })'], { returns });
    const res = await p;
    expect(res).toMatchObject({ status: 'completed', result: { count: 3 }, turns: 3 });
    const ends = of(events, 'turn-end');
    expect(ends[0].directive).toMatchObject({ continue: true });
    const reminder = provider.requests[1].messages.at(-1) as { role: string; content: string };
    expect(reminder.role).toBe('user');
    expect(reminder.content).toContain('ctx.finish(value)');
    expect(reminder.content).toContain('"required":["count"]');
    const bad = of(events, 'tool-error')[0];
    expect(bad.error.message).toContain('does not match the returns schema: result/count must be number');
    expect(provider.requests[0].system).toContain('"required":["count"]');
  });

  it('persistent mode is refused together with returns', async () => {
    const { p } = run(['return 1'], { persistent: true, returns: { type: 'object' } });
    const res = await p;
    expect(res).toMatchObject({ status: 'failed', error: { code: 'agent/config' } });
  });

  it('a script that runs out is an error, labelled scripted', async () => {
    const { p, events } = run(['return 1']);
    const res = await p;
    expect(res.error).toEqual({ code: 'provider/script-exhausted', message: 'the script has 1 turn(s); turn 2 was asked for' });
    expect(of(events, 'error')[0]).toMatchObject({ attempt: 1, provider: 'scripted' });
  });
});

describe('runAgent: discovery', () => {
  const manifests = [
    tool('count-words', { params: { type: 'object', properties: { text: { type: 'string', description: 'the text' } }, required: ['text'] } }),
    tool('echo'),
    tool('secret', { visibility: 'hidden' }),
    tool('agent'),
    tool('greeter'),
    tool('cfg', { role: 'middleware', params: { type: 'object', properties: { level: { type: 'number' } } } }),
  ];
  const host = () => toolHost({ 'count-words': words, echo: (a) => a, secret: () => 's', greeter: () => 'hi', agent: () => 'x', cfg: () => undefined }, manifests);

  it('constrained mode inlines exactly the allowed tools and refuses the rest', async () => {
    const provider = recording(createScriptedProvider(['return await ctx.invoke("greeter", {})', 'return await ctx.invoke("skill-list")', { text: 'done' }]));
    const events: AgentEvent[] = [];
    const res = await runAgent({ task: 't', provider, tools: host(), sandbox, allowedTools: 'count-words echo', onEvent: (e) => events.push(e) });
    expect(res.mode).toBe('constrained');
    expect(of(events, 'agent-start')[0].tools).toEqual(['count-words', 'echo']);
    const system = provider.requests[0].system;
    expect(system).toContain('### count-words\ncount-words tool\nparams: {"type":"object","properties":{"text":{"type":"string","description":"the text"}},"required":["text"]}');
    expect(system).toContain('### echo');
    expect(system).not.toContain('greeter');
    expect(system).not.toContain('skill-list');
    const errors = of(events, 'tool-error')
      .filter((e) => e.via === 'model')
      .map((e) => e.error.message);
    expect(errors[0]).toContain('tool "greeter" is not available to this agent');
    expect(errors[1]).toContain('tool "skill-list" is not available to this agent');
  });

  it('a locked tool is refused with what unlocks it (token/missing), not "not available"', async () => {
    const tools = { ...host(), whyUnavailable: (ref: string) => (ref === 'repos' ? 'tool "repos" is locked: it needs @oauth/github (repo); to unlock it: connect GitHub' : null) };
    const provider = createScriptedProvider(['return await ctx.invoke("repos", {})', 'return await ctx.invoke("nope", {})', { text: 'done' }]);
    const events: AgentEvent[] = [];
    await runAgent({ task: 't', provider, tools, sandbox, onEvent: (e) => events.push(e) });
    const refused = of(events, 'tool-error').filter((e) => e.via === 'code');
    expect(refused.map((e) => [e.tool, e.error])).toEqual([
      ['repos', { code: 'token/missing', message: 'tool "repos" is locked: it needs @oauth/github (repo); to unlock it: connect GitHub' }],
    ]);
    const invokeErrors = of(events, 'tool-error')
      .filter((e) => e.via === 'model')
      .map((e) => e.error.message);
    expect(invokeErrors[0]).toContain('needs @oauth/github (repo)');
    expect(invokeErrors[1]).toContain('tool "nope" is not available to this agent');
  });

  it('discovery mode adds skill-list and skill-describe; hidden, the agent and self are excluded', async () => {
    const provider = recording(
      createScriptedProvider([
        'memory.list = await ctx.invoke("skill-list"); return memory.list.map(t => t.name)',
        'ctx.finish(await ctx.invoke("skill-describe", { name: "count-words" }))',
      ]),
    );
    const res = await runAgent({ task: 't', provider, tools: host(), sandbox, skillName: 'greeter' });
    expect(res.mode).toBe('discovery');
    expect((res.memory.list as Array<{ name: string }>).map((t) => t.name)).toEqual(['count-words', 'echo', 'cfg']);
    expect(res.result).toMatchObject({ name: 'count-words', skill: 'demo', params: { required: ['text'] } });
    expect(provider.requests[0].system).toContain('skill-list');
    expect(provider.requests[0].system).not.toContain('### count-words');
  });

  it('a hidden tool or the calling skill becomes visible when allowed-tools names it; * keeps discovery', async () => {
    const provider = recording(createScriptedProvider(['return [await ctx.invoke("secret"), await ctx.invoke("greeter")]', { text: 'ok' }]));
    const res = await runAgent({ task: 't', provider, tools: host(), sandbox, allowedTools: '* secret greeter agent', skillName: 'greeter' });
    expect(res.mode).toBe('discovery');
    const fed = provider.requests[1].messages.at(-1) as { content: string };
    expect(JSON.parse(fed.content)).toEqual({ ok: true, result: ['s', 'hi'] });
    const system = provider.requests[0].system;
    expect(system).toContain('### secret');
    expect(system).not.toContain('### agent');
  });

  it('documents middleware tools separately and applies argument specifiers', async () => {
    const provider = recording(createScriptedProvider(['return await ctx.invoke("echo", { text: "ok-1" })', 'return await ctx.invoke("echo", { text: "nope" })', { text: 'end' }]));
    const events: AgentEvent[] = [];
    await runAgent({ task: 't', provider, tools: host(), sandbox, allowedTools: 'echo(text=ok-*) cfg', onEvent: (e) => events.push(e) });
    expect(provider.requests[0].system).toContain('## Middleware tools');
    const modelResults = events.filter((e) => (e.type === 'tool-result' || e.type === 'tool-error') && e.via === 'model');
    expect(modelResults[0]).toMatchObject({ type: 'tool-result', result: { text: 'ok-1' } });
    expect(modelResults[1]).toMatchObject({ type: 'tool-error' });
    expect((modelResults[1] as { error: { message: string } }).error.message).toContain(`tool "echo": arguments do not match 'echo(text=ok-*)'`);
  });
});

describe('runAgent: hooks and directives', () => {
  it('deny blocks a tool call; stop ends the run with the hook result', async () => {
    const { p, events, provider, host } = run(['return await ctx.invoke("echo", { text: "x" })', 'return 2', 'return 3'], {
      hooks: (e) => {
        if (e.type === 'tool-call' && e.turnNumber === 1) return { deny: 'not on turn one' };
        if (e.type === 'turn-end' && e.turnNumber === 2) return { stop: true, result: 'stopped by hook' };
      },
    });
    const res = await p;
    expect(res).toMatchObject({ status: 'completed', result: 'stopped by hook', turns: 2, steps: 1 });
    expect(host.calls).toEqual([]);
    expect(of(events, 'tool-call')[0]).toMatchObject({ denied: 'not on turn one', via: 'model' });
    expect(of(events, 'tool-error')[0].error).toEqual({ code: 'agent/denied', message: 'not on turn one' });
    expect((provider.requests[1].messages.at(-1) as { content: string }).content).toBe('{"ok":false,"error":"agent/denied: not on turn one"}');
  });

  it('continue with a message re-invokes the model with that message', async () => {
    const { p, provider } = run([{ text: 'first' }, { text: 'second' }], {
      hooks: (e) => (e.type === 'turn-end' && e.turnNumber === 1 ? { continue: true, message: 'Go on, be precise.' } : undefined),
    });
    const res = await p;
    expect(res.result).toBe('second');
    expect(provider.requests[1].messages.at(-1)).toEqual({ role: 'user', content: 'Go on, be precise.' });
  });

  it('persistent mode keeps going past text answers and retries errors with backoff', async () => {
    let calls = 0;
    const flaky = {
      name: 'flaky',
      model: null,
      async complete() {
        calls++;
        if (calls <= 2) throw Object.assign(new Error('upstream down'), { code: 'provider/http' });
        return { text: `turn ${calls}`, toolCalls: [], stopReason: 'end_turn', usage: null, streamed: false };
      },
    };
    const events: AgentEvent[] = [];
    const res = await runAgent({
      task: 't',
      provider: flaky,
      tools: toolHost({}),
      sandbox,
      persistent: true,
      backoff: { baseMs: 1, capMs: 5 },
      onEvent: (e) => events.push(e),
      hooks: (e) => (e.type === 'turn-end' && e.turnNumber === 3 ? { stop: true, result: 'enough' } : undefined),
    });
    expect(res).toMatchObject({ status: 'completed', result: 'enough', turns: 3 });
    const retries = of(events, 'retry');
    expect(retries.map((r) => [r.scope, r.attempt, r.delayMs])).toEqual([
      ['turn', 1, 1],
      ['turn', 2, 2],
    ]);
    expect(of(events, 'turn-end').map((e) => e.directive)).toEqual([{ continue: true }, { continue: true }, { stop: true, result: 'enough' }]);
  });

  it("puts the tokens of each turn's model requests on its turn-end (retries summed) and in the total", async () => {
    let calls = 0;
    const metered = {
      name: 'metered',
      model: null,
      async complete() {
        calls++;
        if (calls === 2) throw Object.assign(new Error('upstream down'), { code: 'provider/http' });
        const usage = calls === 1 ? { inputTokens: 100, outputTokens: 10 } : calls === 3 ? { inputTokens: 150, outputTokens: 20 } : null;
        return { text: `turn ${calls}`, toolCalls: [], stopReason: 'end_turn', usage, streamed: false };
      },
    };
    const events: AgentEvent[] = [];
    const res = await runAgent({
      task: 't',
      provider: metered,
      tools: toolHost({}),
      sandbox,
      persistent: true,
      backoff: { baseMs: 1, capMs: 5 },
      onEvent: (e) => events.push(e),
      hooks: (e) => (e.type === 'turn-end' && e.turnNumber === 3 ? { stop: true, result: 'enough' } : undefined),
    });
    expect(res.status).toBe('completed');
    // turn 1: 100/10; turn 2: its first request failed, the retry reported 150/20; turn 3: nothing reported
    expect(of(events, 'turn-end').map((e) => e.usage ?? null)).toEqual([{ inputTokens: 100, outputTokens: 10 }, { inputTokens: 150, outputTokens: 20 }, null]);
    expect(res.usage).toEqual({ inputTokens: 250, outputTokens: 30 });
  });

  it('cancel stops a run waiting in a tool call inside the sandbox', async () => {
    const ac = new AbortController();
    const host = toolHost({
      slow: (_a, o) => new Promise((_, reject) => o?.signal?.addEventListener('abort', () => reject(new Error('tool saw the abort')))),
    });
    const events: AgentEvent[] = [];
    // `slow` settles only on abort: without cancellation this run never ends (no timing assert needed)
    const p = runAgent({
      task: 't',
      provider: createScriptedProvider(['return await ctx.invoke("slow", {})']),
      tools: host,
      sandbox,
      signal: ac.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'tool-call' && e.via === 'code') setTimeout(() => ac.abort(), 10);
      },
    });
    const res = await p;
    expect(res).toMatchObject({ status: 'cancelled', error: { code: 'agent/cancelled' } });
    expect(types(events).at(-1)).toBe('agent-error');
  });

  it('cancel stops a manual provider waiting for a person', async () => {
    const ac = new AbortController();
    let asked = 0;
    const provider = createManualProvider(async () => {
      asked++;
      setTimeout(() => ac.abort(), 5);
      return new Promise(() => {});
    });
    const res = await runAgent({ task: 't', provider, tools: toolHost({}), sandbox, signal: ac.signal });
    expect(res).toMatchObject({ status: 'cancelled', provider: 'manual', turns: 1 });
    expect(asked).toBe(1);
  });

  it('manual provider: each turn comes from nextTurn', async () => {
    const turns = ['memory.x = 5; return memory.x', { text: 'finishing', code: 'ctx.finish(memory.x * 2)' }];
    const seen: number[] = [];
    const provider = createManualProvider(async (req) => {
      seen.push(req.turnNumber);
      return turns.shift() ?? null;
    });
    const res = await runAgent({ task: 't', provider, tools: toolHost({}), sandbox });
    expect(res).toMatchObject({ status: 'completed', result: 10, provider: 'manual' });
    expect(seen).toEqual([1, 2]);
  });
});

describe('runAgent with a fake sandbox (no isolate)', () => {
  it('a sandbox job that never ends is abandoned on cancel', async () => {
    const ac = new AbortController();
    const fake = fakeSandbox({ hang: () => new Promise(() => {}) });
    setTimeout(() => ac.abort(), 10);
    const res = await runAgent({ task: 't', provider: createScriptedProvider(['hang']), tools: toolHost({}), sandbox: fake, signal: ac.signal });
    expect(res.status).toBe('cancelled');
    expect(fake.jobs[0]).toMatchObject({ entry: 'default', hostMethods: ['invoke', 'finish', 'next'], returnGlobals: ['memory', '__agentLogs'] });
  });

  it('ctx.next() without a middleware host is an error, with one it advances the pipeline', async () => {
    const fake = fakeSandbox({ next: async (host) => host('next') });
    const without = await runAgent({ task: 't', provider: createScriptedProvider(['next', { text: 'x' }]), tools: toolHost({}), sandbox: fake });
    expect(without.trace.find((e) => e.type === 'tool-error')).toMatchObject({
      error: { code: 'sandbox/guest-error', message: 'ctx.next() works only when the agent serves a middleware tool' },
    });
    const host = { ...toolHost({}), next: async () => 'downstream' };
    const withNext = await runAgent({ task: 't', provider: createScriptedProvider(['next', { text: 'x' }]), tools: host, sandbox: fake });
    expect(withNext.trace.find((e) => e.type === 'tool-result')).toMatchObject({ result: 'downstream' });
  });
});
