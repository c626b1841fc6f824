// Highlighting and markdown run on a thread of its own (issue 23: 64 KB of TypeScript took
// the web process's only thread 0.5-1.9 s per view of the file, 256 KB of markdown 2.5-5 s
// per view of its skill's page): the event loop keeps turning meanwhile, a second view is a
// cache hit, a text that takes too long or finds the thread too busy shows as plain text,
// and the thread keeps serving after that.
import { afterEach, describe, expect, it } from 'vitest';
import { RenderThread } from './render-thread';
import { languageOf } from './languages';
import { MARKDOWN_HTML } from './markdown-options';

function typescript(bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += `// step ${i}\nexport function step${i}(a: number, b: string): string {\n  return \`\${a}:\${b}\` + '${i}';\n}\n`;
  return out.slice(0, bytes);
}

let thread: RenderThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
});

describe('RenderThread', () => {
  it('highlights with every character of the file escaped', async () => {
    thread = new RenderThread();
    const html = await thread.render('const a = "</script><img src=x onerror=alert(1)>";\n', 'typescript');
    expect(html).toContain('<pre class="shiki');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</script>');
    expect(html).toContain('&#x3C;img');
  }, 30_000);

  it('keeps the event loop turning while a large file is highlighted, and serves a second view from its cache', async () => {
    thread = new RenderThread();
    await thread.render('const warm = 1;', 'typescript'); // the thread and its grammars are loaded
    const source = typescript(64 * 1024);
    let ticks = 0;
    const tick = setInterval(() => ticks++, 5);
    const html = await thread.render(source, 'typescript');
    clearInterval(tick);
    expect(html).toContain('step0');
    // the loop turned many times while the grammar ran (highlighted in this thread, it would not have once)
    expect(ticks).toBeGreaterThan(2);
    expect(await thread.render(source, 'typescript')).toBe(html);
    expect(thread.stats).toMatchObject({ rendered: 2, cached: 1 });
  }, 60_000);

  it('shows a file that takes too long as plain text, and highlights the next one on a fresh thread', async () => {
    thread = new RenderThread({ timeoutMs: 2_000 });
    // a megabyte of TypeScript takes shiki many seconds
    expect(await thread.render(typescript(1024 * 1024), 'typescript')).toBeNull();
    expect(thread.stats.plain.timeout).toBe(1);
    expect(await thread.render('let x = 1;', 'typescript')).toContain('shiki');
  }, 60_000);

  it('past its queue, a file shows as plain text at once; views of one file share one highlight', async () => {
    thread = new RenderThread({ queueLimit: 2 });
    const files = Array.from({ length: 5 }, (_, i) => `const v${i} = ${i};`);
    const same = [thread.render(files[0]!, 'typescript'), thread.render(files[0]!, 'typescript')];
    const others = files.slice(1).map((f) => thread!.render(f, 'typescript'));
    const results = await Promise.all([...same, ...others]);
    expect(results[0]).toContain('v0');
    expect(results[1]).toBe(results[0]);
    // the first started at once, two waited, the rest found the line full
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(thread.stats.plain.busy).toBe(2);
  }, 30_000);

  it('an unknown grammar answers plain text, and the thread goes on', async () => {
    thread = new RenderThread();
    expect(await thread.render('x', 'cobol')).toBeNull();
    expect(await thread.render('let y = 2;', 'typescript')).toContain('shiki');
  }, 30_000);
});

describe('markdown on the render thread', () => {
  it("renders as react-markdown does on the page: headings under the page's, no raw HTML, safe links only", async () => {
    thread = new RenderThread();
    const html = await thread.render(
      '# Title\n\n## Part\n\n<script>alert(1)</script>\n\n[ok](https://example.com) [bad](javascript:alert(1)) ![pic](x.png)\n\n```\ncode\n```\n',
      MARKDOWN_HTML,
    );
    expect(html).toContain('<h3 class="md-h1">Title</h3>');
    expect(html).toContain('<h4 class="md-h2">Part</h4>');
    expect(html).not.toContain('<script');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">ok</a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('[image: pic]');
    expect(html).toContain('<pre tabindex="0"><code>code');
  }, 30_000);

  it('keeps the event loop turning while a 64 KB readme renders', async () => {
    thread = new RenderThread();
    let md = '';
    for (let i = 0; md.length < 64 * 1024; i++) md += `## Section ${i}\n\nSome *emphasis* and a [link](https://example.com/${i}).\n\n- item\n  - nested ${i}\n\n`;
    let ticks = 0;
    const tick = setInterval(() => ticks++, 5);
    const html = await thread.render(md, MARKDOWN_HTML);
    clearInterval(tick);
    expect(html).toContain('Section 0');
    expect(ticks).toBeGreaterThan(2);
  }, 60_000);
});

describe('languageOf', () => {
  it('maps the loaded grammars by extension, anything else to plain text', () => {
    expect(['a.ts', 'b.MJS', 'c.py', 'd.yml', 'SKILL.md', 'data.txt', 'Makefile'].map(languageOf)).toEqual(['typescript', 'javascript', 'python', 'yaml', 'markdown', null, null]);
  });
});
