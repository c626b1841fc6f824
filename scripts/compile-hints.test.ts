import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { COMPILE_HINT, addCompileHints, ranAsScript } from './compile-hints';

let dir = '';
const chunk = (name: string) => path.join(dir, 'static', 'chunks', name);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-hints-'));
  fs.mkdirSync(path.join(dir, 'static', 'chunks'), { recursive: true });
  fs.writeFileSync(chunk('main.js'), '(globalThis.TURBOPACK||[]).push([1,()=>{}]);');
  fs.writeFileSync(chunk('runtime.js'), 'let W=()=>1;');
  fs.writeFileSync(chunk('lazy.js'), 'export const later = 1;');
  fs.writeFileSync(chunk('polyfills.js'), 'self.p = 1;');
  fs.writeFileSync(
    path.join(dir, 'build-manifest.json'),
    JSON.stringify({ polyfillFiles: ['static/chunks/polyfills.js'], rootMainFiles: ['static/chunks/main.js', 'static/chunks/runtime.js', 'static/css/x.css'] }),
  );
  // a page's client reference manifest, as next build writes it: its entry chunks load at
  // startup; a chunk only named by a client module (loaded later) is not one of them
  fs.writeFileSync(chunk('page.js'), 'let Page=()=>2;');
  const app = path.join(dir, 'server', 'app', '(group)');
  fs.mkdirSync(path.join(app, 'page'), { recursive: true });
  const manifest = {
    clientModules: { later: { chunks: ['/_next/static/chunks/lazy.js'] } },
    entryJSFiles: { '[project]/app/layout': ['static/chunks/main.js'], '[project]/app/(group)/page': ['static/chunks/main.js', 'static/chunks/page.js'] },
  };
  fs.writeFileSync(
    path.join(app, 'page_client-reference-manifest.js'),
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST["/(group)/page"] = ${JSON.stringify(manifest)};`,
  );
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('addCompileHints', () => {
  it('marks the startup chunks and nothing else, keeping their code', () => {
    expect(addCompileHints(dir)).toEqual(['static/chunks/main.js', 'static/chunks/runtime.js', 'static/chunks/page.js']);
    expect(fs.readFileSync(chunk('main.js'), 'utf8')).toBe(`${COMPILE_HINT}(globalThis.TURBOPACK||[]).push([1,()=>{}]);`);
    expect(fs.readFileSync(chunk('runtime.js'), 'utf8')).toBe(`${COMPILE_HINT}let W=()=>1;`);
    expect(fs.readFileSync(chunk('page.js'), 'utf8')).toBe(`${COMPILE_HINT}let Page=()=>2;`);
    expect(fs.readFileSync(chunk('lazy.js'), 'utf8')).toBe('export const later = 1;');
    expect(fs.readFileSync(chunk('polyfills.js'), 'utf8')).toBe('self.p = 1;');
  });

  it('is idempotent: a second run changes nothing', () => {
    addCompileHints(dir);
    expect(addCompileHints(dir)).toEqual([]);
    expect(fs.readFileSync(chunk('main.js'), 'utf8').split(COMPILE_HINT)).toHaveLength(2);
  });

  it('refuses a manifest without rootMainFiles, changing nothing', () => {
    fs.writeFileSync(path.join(dir, 'build-manifest.json'), JSON.stringify({ pages: {} }));
    expect(() => addCompileHints(dir)).toThrow(/rootMainFiles/);
    expect(fs.readFileSync(chunk('main.js'), 'utf8')).not.toContain(COMPILE_HINT);
  });

  it('runs as a script only as itself, not inside the bundle of scripts/start.ts', () => {
    const own = path.resolve('scripts/compile-hints.ts');
    expect(ranAsScript(pathToFileURL(own).href, own)).toBe(true);
    // dist/start.mjs run directly: module and argv[1] are the bundle
    const bundle = path.resolve('dist/start.mjs');
    expect(ranAsScript(pathToFileURL(bundle).href, bundle)).toBe(false);
    expect(ranAsScript(pathToFileURL(own).href, undefined)).toBe(false);
  });
});
