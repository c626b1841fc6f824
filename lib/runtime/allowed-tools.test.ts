import { describe, expect, it } from 'vitest';
import { checkAllowedTools, mayListTool, parseAllowedTools } from './allowed-tools';

const allowed = (spec: string | string[], name: string, args: unknown = {}) => checkAllowedTools(parseAllowedTools(spec), [name], args).allowed;

describe('parseAllowedTools', () => {
  it('splits on whitespace outside parentheses and reads specifiers', () => {
    expect(parseAllowedTools('file-read  agent(allowedTools=file-read, name=x*) rm($deny)')?.entries).toEqual([
      { pattern: 'file-read', conditions: [], deny: false, source: 'file-read' },
      {
        pattern: 'agent',
        conditions: [
          { key: 'allowedTools', value: 'file-read' },
          { key: 'name', value: 'x*' },
        ],
        deny: false,
        source: 'agent(allowedTools=file-read, name=x*)',
      },
      { pattern: 'rm', conditions: [], deny: true, source: 'rm($deny)' },
    ]);
  });
  it('joins YAML arrays; null means no restriction', () => {
    expect(parseAllowedTools(['a', 'b(x=1)'])?.entries.map((e) => e.pattern)).toEqual(['a', 'b']);
    expect(parseAllowedTools(null)).toBeNull();
    expect(checkAllowedTools(null, ['anything'], {})).toEqual({ allowed: true });
  });
});

describe('checkAllowedTools', () => {
  it('globs on tool names (* and ?)', () => {
    expect(allowed('file-*', 'file-read')).toBe(true);
    expect(allowed('file-*', 'web-fetch')).toBe(false);
    expect(allowed('file-rea?', 'file-read')).toBe(true);
    expect(allowed('*', 'x')).toBe(true);
  });
  it('key=value specifiers constrain args with globs; a missing arg does not match', () => {
    expect(allowed('schedule-create(ref=my-*)', 'schedule-create', { ref: 'my-job' })).toBe(true);
    expect(allowed('schedule-create(ref=my-*)', 'schedule-create', { ref: 'their-job' })).toBe(false);
    expect(allowed('schedule-create(ref=my-*)', 'schedule-create', {})).toBe(false);
    expect(allowed('t(n=3)', 't', { n: 3 })).toBe(true);
    expect(allowed('t(opts.mode=fast)', 't', { opts: { mode: 'fast' } })).toBe(true);
  });
  it('one of several entries for a name may match', () => {
    const spec = 'agent(allowedTools=file-read) agent(allowedTools=web-*)';
    expect(allowed(spec, 'agent', { allowedTools: 'web-fetch' })).toBe(true);
    expect(allowed(spec, 'agent', { allowedTools: '*' })).toBe(false);
  });
  it('$deny refuses (alone or with conditions) and wins over allows', () => {
    expect(allowed('* rm($deny)', 'rm')).toBe(false);
    expect(allowed('* rm($deny)', 'ls')).toBe(true);
    expect(allowed('rm($deny)', 'ls')).toBe(true);
    expect(allowed('file-*(path=/etc/*,$deny)', 'file-write', { path: '/etc/passwd' })).toBe(false);
    expect(allowed('file-*(path=/etc/*,$deny)', 'file-write', { path: '/tmp/x' })).toBe(true);
    expect(checkAllowedTools(parseAllowedTools('* rm($deny)'), ['rm'], {})).toEqual({ allowed: false, reason: "denied by 'rm($deny)'" });
  });
  it('matches a target by any of its names (bare or skill/tool)', () => {
    expect(checkAllowedTools(parseAllowedTools('notes/*'), ['create-note', 'notes/create-note'], {}).allowed).toBe(true);
  });
  it('regex metacharacters in patterns are literal', () => {
    expect(allowed('a.b', 'axb')).toBe(false);
    expect(allowed('a.b', 'a.b')).toBe(true);
  });
});

describe('mayListTool', () => {
  it('ignores argument conditions but honours unconditional denies', () => {
    expect(mayListTool(parseAllowedTools('t(x=1)'), ['t'])).toBe(true);
    expect(mayListTool(parseAllowedTools('* t($deny)'), ['t'])).toBe(false);
    expect(mayListTool(parseAllowedTools('u'), ['t'])).toBe(false);
  });
});
