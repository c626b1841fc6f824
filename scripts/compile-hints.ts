// After `next build`: marks the client chunks pages run at startup with V8's explicit
// compile hint `//# allFunctionsCalledOnLoad`: the build manifest's rootMainFiles (React, the
// Next.js router, the Turbopack runtime: every page) and the entry chunks of each page and
// layout (the client reference manifests' entryJSFiles: their client components). Chromium
// (136+) then compiles their functions eagerly on the thread that streams the script in,
// instead of lazily on the main thread while the page starts. Measured on
// /playground/compare (bench/trace, issue 31): the start's one long task (the entry chunk
// instantiating the framework's modules, most of it lazy compilation) went from 40–82 ms
// to 14–36 ms of main-thread time. Chunks only loaded later (import()) are left lazy.
// Other browsers read the line as a comment. Idempotent; `npm run build` and `npm start`
// run it after `next build`.
//   node --import tsx scripts/compile-hints.ts [.next]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Every `*_client-reference-manifest.js` under `dir` (the server's app folder). */
function clientReferenceManifests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('_client-reference-manifest.js'))
    .map((f) => path.join(dir, f));
}

/** The JS chunks a page or layout loads at startup, from one client reference manifest (a script that sets globalThis.__RSC_MANIFEST). */
function entryChunks(manifestFile: string): string[] {
  const sandbox: { __RSC_MANIFEST?: Record<string, { entryJSFiles?: Record<string, unknown> }> } = {};
  vm.runInNewContext(fs.readFileSync(manifestFile, 'utf8'), sandbox, { filename: manifestFile, timeout: 1000 });
  return Object.values(sandbox.__RSC_MANIFEST ?? {}).flatMap((m) => Object.values(m.entryJSFiles ?? {}).flatMap((files) => (Array.isArray(files) ? files : [])));
}

/** The startup chunks of the build in `distDir` (paths relative to it). */
export function startupChunks(distDir: string): string[] {
  const manifestPath = path.join(distDir, 'build-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { rootMainFiles?: unknown };
  if (!Array.isArray(manifest.rootMainFiles)) throw new Error(`${manifestPath} lists no rootMainFiles: not a Next.js app-router build`);
  const files = [...manifest.rootMainFiles, ...clientReferenceManifests(path.join(distDir, 'server', 'app')).flatMap(entryChunks)];
  return [...new Set(files)].filter((f): f is string => typeof f === 'string' && f.startsWith('static/') && f.endsWith('.js') && !f.includes('..'));
}

/** Prepends the hint to each startup chunk of the build in `distDir`; returns the files it changed. */
export function addCompileHints(distDir: string): string[] {
  const changed: string[] = [];
  for (const file of startupChunks(distDir)) {
    const chunk = path.join(distDir, file);
    const code = fs.readFileSync(chunk, 'utf8');
    if (code.startsWith(COMPILE_HINT)) continue;
    fs.writeFileSync(chunk, COMPILE_HINT + code);
    changed.push(file);
  }
  return changed;
}

/**
 * Whether this module is the script node was started with. Not when it is bundled into
 * another (dist/start.mjs, esbuild): there import.meta.url is the bundle's, and so is
 * argv[1] when the bundle is run directly (`node dist/start.mjs --port 3000` would read
 * `--port` as the build folder and fail).
 */
export function ranAsScript(moduleUrl: string, argv1: string | undefined): boolean {
  return !!argv1 && path.basename(argv1).startsWith('compile-hints.') && moduleUrl === pathToFileURL(argv1).href;
}

if (ranAsScript(import.meta.url, process.argv[1])) {
  const distDir = path.resolve(process.argv[2] ?? '.next');
  const changed = addCompileHints(distDir);
  console.log(`[compile-hints] ${changed.length} startup chunk(s) marked for eager compilation`);
}
