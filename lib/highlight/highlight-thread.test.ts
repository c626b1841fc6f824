// Highlighting runs on a thread of its own (issue 23: 64 KB of TypeScript took the web
// process's only thread for 0.5-1.9 s per view of the file): the event loop keeps turning
// while a file is highlighted, a second view is a cache hit, a file that takes too long or
// finds the thread too busy shows as plain text, and the thread keeps serving after that.
import { afterEach, describe, expect, it } from 'vitest';
import { HighlightThread } from './highlight-thread';
import { languageOf } from './languages';

function typescript(bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += `// step ${i}\nexport function step${i}(a: number, b: string): string {\n  return \`\${a}:\${b}\` + '${i}';\n}\n`;
  return out.slice(0, bytes);
}

let thread: HighlightThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
});

describe('HighlightThread', () => {
  it('highlights with every character of the file escaped', async () => {
    thread = new HighlightThread();
    const html = await thread.highlight('const a = "</script><img src=x onerror=alert(1)>";\n', 'typescript');
    expect(html).toContain('<pre class="shiki');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</script>');
    expect(html).toContain('&#x3C;img');
  }, 30_000);

  it('keeps the event loop turning while a large file is highlighted, and serves a second view from its cache', async () => {
    thread = new HighlightThread();
    await thread.highlight('const warm = 1;', 'typescript'); // the thread and its grammars are loaded
    const source = typescript(64 * 1024);
    let ticks = 0;
    const tick = setInterval(() => ticks++, 5);
    const html = await thread.highlight(source, 'typescript');
    clearInterval(tick);
    expect(html).toContain('step0');
    // the loop turned many times while the grammar ran (highlighted in this thread, it would not have once)
    expect(ticks).toBeGreaterThan(2);
    expect(await thread.highlight(source, 'typescript')).toBe(html);
    expect(thread.stats).toMatchObject({ highlighted: 2, cached: 1 });
  }, 60_000);

  it('shows a file that takes too long as plain text, and highlights the next one on a fresh thread', async () => {
    thread = new HighlightThread({ timeoutMs: 2_000 });
    // a megabyte of TypeScript takes shiki many seconds
    expect(await thread.highlight(typescript(1024 * 1024), 'typescript')).toBeNull();
    expect(thread.stats.plain.timeout).toBe(1);
    expect(await thread.highlight('let x = 1;', 'typescript')).toContain('shiki');
  }, 60_000);

  it('past its queue, a file shows as plain text at once; views of one file share one highlight', async () => {
    thread = new HighlightThread({ queueLimit: 2 });
    const files = Array.from({ length: 5 }, (_, i) => `const v${i} = ${i};`);
    const same = [thread.highlight(files[0]!, 'typescript'), thread.highlight(files[0]!, 'typescript')];
    const others = files.slice(1).map((f) => thread!.highlight(f, 'typescript'));
    const results = await Promise.all([...same, ...others]);
    expect(results[0]).toContain('v0');
    expect(results[1]).toBe(results[0]);
    // the first started at once, two waited, the rest found the line full
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(thread.stats.plain.busy).toBe(2);
  }, 30_000);

  it('an unknown grammar answers plain text, and the thread goes on', async () => {
    thread = new HighlightThread();
    expect(await thread.highlight('x', 'cobol')).toBeNull();
    expect(await thread.highlight('let y = 2;', 'typescript')).toContain('shiki');
  }, 30_000);
});

describe('languageOf', () => {
  it('maps the loaded grammars by extension, anything else to plain text', () => {
    expect(['a.ts', 'b.MJS', 'c.py', 'd.yml', 'SKILL.md', 'data.txt', 'Makefile'].map(languageOf)).toEqual(['typescript', 'javascript', 'python', 'yaml', 'markdown', null, null]);
  });
});
