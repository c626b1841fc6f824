// Python and bash handlers as subprocesses: off unless the operator enables them
// (SKILLYARD_ALLOW_SUBPROCESS=1 → allowSubprocess), a timeout that kills the whole process
// group, a clean environment (PATH, HOME=workDir, LANG, PYTHONPATH only: no inherited
// secrets) and output size limits. The handler gets its whole package, read-only, with
// the package root as its working directory and PYTHONPATH set to the handler's folder
// and the root (so `import helpers` and `from lib import x` work as on the author's
// machine), plus a scratch __workDir it may write (removed after).

import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RuntimeError } from './errors';
import type { HandlerConvention } from './types';

export const DEFAULT_SUBPROCESS_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export type ProcessRequest = {
  command: string;
  args: string[];
  stdin?: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  /** open fd 3 as a pipe and collect it (the python driver writes its result there) */
  resultFd?: boolean;
};

export type ProcessResult = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  result: string;
  timedOut: boolean;
  outputTooLarge: boolean;
};

export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const stdio: Array<'pipe'> = req.resultFd ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'];
    // detached: the child leads its own process group, so a timeout kills its children too.
    const child: ChildProcess = spawn(req.command, req.args, { cwd: req.cwd, env: req.env as NodeJS.ProcessEnv, stdio, detached: true });
    const chunks: Buffer[][] = [[], [], [], []];
    let total = 0;
    let timedOut = false;
    let outputTooLarge = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, req.timeoutMs);
    const collect = (fd: number) => (buf: Buffer) => {
      total += buf.length;
      if (total > req.maxOutputBytes) {
        if (!outputTooLarge) {
          outputTooLarge = true;
          kill();
        }
        return;
      }
      chunks[fd].push(buf);
    };
    child.stdout?.on('data', collect(1));
    child.stderr?.on('data', collect(2));
    if (req.resultFd) (child.stdio[3] as NodeJS.ReadableStream | null)?.on('data', collect(3));
    child.on('error', (err: Error) => {
      clearTimeout(timer);
      reject(new RuntimeError('runtime/subprocess-failed', `cannot start ${req.command}: ${err.message}`));
    });
    child.on('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      const text = (fd: number) => Buffer.concat(chunks[fd]).toString('utf8');
      resolve({ exitCode, signal, stdout: text(1), stderr: text(2), result: text(3), timedOut, outputTooLarge });
    });
    child.stdin?.on('error', () => {
      /* the child may exit without reading stdin */
    });
    child.stdin?.end(req.stdin ?? '');
  });
}

export function cleanEnv(workDir: string): Record<string, string> {
  return {
    // eslint-disable-next-line no-restricted-properties -- the operating system's search path for the child, not a setting
    PATH: process.env.PATH || '/usr/local/bin:/usr/bin:/bin',
    HOME: workDir,
    LANG: 'C.UTF-8',
  };
}

// Imports the tool as a module (never as __main__), calls it with its convention and writes
// {ok, value|error} as JSON to fd 3, so whatever the tool prints cannot corrupt the result.
export const PYTHON_DRIVER = String.raw`
import asyncio, importlib.util, inspect, json, os, sys

async def _await(x):
    return await x

def main():
    req = json.load(sys.stdin)
    out = os.fdopen(3, "w")
    try:
        path = req["path"]
        sys.path.insert(0, os.path.dirname(path))
        spec = importlib.util.spec_from_file_location("skillyard_tool", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        params = req["params"]
        execute = getattr(mod, "execute", None)
        handler = getattr(mod, "handler", None)
        main_fn = getattr(mod, "main", None)
        if req["convention"] == "rye" and callable(execute):
            res = execute(params, req["projectPath"])
        elif callable(handler):
            args = dict(params)
            args["__workDir"] = req["workDir"]
            res = handler(args)
        elif callable(execute):
            res = execute(params, req["projectPath"])
        elif callable(main_fn):
            res = main_fn(params)
        else:
            raise RuntimeError("the module defines no execute(), handler() or main()")
        if inspect.isawaitable(res):
            res = asyncio.run(_await(res))
        out.write(json.dumps({"ok": True, "value": res}, default=str))
    except BaseException as e:
        out.write(json.dumps({"ok": False, "error": type(e).__name__ + ": " + str(e)}))
    out.flush()

main()
`;

export type ScriptHandlerRequest = {
  language: 'python' | 'bash';
  /** package-relative path of the handler */
  file: string;
  source: string;
  /** the package's files (package-relative, as in the manifest) and how to read one */
  files?: readonly string[];
  readFile?: (path: string) => Promise<string | Uint8Array>;
  convention: HandlerConvention;
  params: Record<string, unknown>;
  allowSubprocess: boolean;
  timeoutMs?: number;
  maxOutputBytes?: number;
  python?: string;
  bash?: string;
};

const DEFINES_ENTRY = /^(async\s+)?def\s+(execute|handler|main)\s*\(/m;

/** Bounds on the package copied for a handler (the reader's package limits). */
export const MAX_PACKAGE_FILES = 2000;
export const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;

/** A package-relative path that stays inside the package, or null. */
function safeRelative(p: string): string | null {
  const parts = p
    .replace(/\\/g, '/')
    .split('/')
    .filter((x) => x !== '' && x !== '.');
  if (!parts.length || parts.some((x) => x === '..' || x.includes('\0')) || /^[a-zA-Z]:/.test(parts[0]) || p.startsWith('/')) return null;
  return parts.join('/');
}

/** A package's files as a subprocess gets them: package-relative paths and how to read one. */
export type PackageFiles = { files?: readonly string[]; readFile?: (path: string) => Promise<string | Uint8Array> };

/** Write the package under `dir` (with `first` already read), then make it read-only (files 0444, folders 0555). */
async function materializePackage(dir: string, pkg: PackageFiles, first?: { rel: string; content: string }): Promise<void> {
  const files = new Set<string>(first ? [first.rel] : []);
  for (const f of pkg.files ?? []) {
    const rel = safeRelative(f);
    if (rel) files.add(rel);
  }
  if (files.size > MAX_PACKAGE_FILES) throw new RuntimeError('runtime/subprocess-failed', `the package has ${files.size} files; a handler gets at most ${MAX_PACKAGE_FILES}`);
  let total = 0;
  for (const rel of files) {
    const content = rel === first?.rel ? first.content : pkg.readFile ? await pkg.readFile(rel) : null;
    if (content === null) continue;
    total += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
    if (total > MAX_PACKAGE_BYTES) throw new RuntimeError('runtime/subprocess-failed', `the package is larger than ${MAX_PACKAGE_BYTES} bytes`);
    const abs = path.join(dir, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content, { flag: 'wx' }); // never through a link or over a file
  }
  await setModes(dir, 0o444, 0o555);
}

/**
 * Runs `fn` with the package written read-only under a fresh temporary root (`skillDir`,
 * the subprocess's cwd) and a scratch `workDir` (its HOME); both are removed afterwards.
 */
export async function withPackageDir<T>(pkg: PackageFiles, fn: (dirs: { skillDir: string; workDir: string }) => Promise<T>): Promise<T> {
  const root = await mkdtemp(path.join(tmpdir(), 'skillyard-run-'));
  const skillDir = path.join(root, 'skill');
  try {
    const workDir = path.join(root, 'work');
    await mkdir(workDir);
    await mkdir(skillDir);
    await materializePackage(skillDir, pkg);
    return await fn({ skillDir, workDir });
  } finally {
    await setModes(skillDir, 0o644, 0o755).catch(() => undefined); // read-only folders cannot be emptied
    await rm(root, { recursive: true, force: true });
  }
}

async function setModes(dir: string, fileMode: number, dirMode: number): Promise<void> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) await setModes(abs, fileMode, dirMode);
    else if (e.isFile()) await chmod(abs, fileMode);
  }
  await chmod(dir, dirMode);
}

function parseOutput(stdout: string): unknown {
  const text = stdout.trim();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function runScriptHandler(req: ScriptHandlerRequest): Promise<unknown> {
  if (!req.allowSubprocess) {
    throw new RuntimeError(
      'runtime/subprocess-disabled',
      `${req.language} handlers run as subprocesses, which are disabled on this server (the operator enables them with SKILLYARD_ALLOW_SUBPROCESS=1)`,
    );
  }
  const root = await mkdtemp(path.join(tmpdir(), 'skillyard-run-'));
  const skillDir = path.join(root, 'skill');
  try {
    const workDir = path.join(root, 'work');
    const handler = safeRelative(req.file) ?? path.basename(req.file);
    const script = path.join(skillDir, handler);
    await mkdir(workDir);
    await mkdir(skillDir);
    await materializePackage(skillDir, req, { rel: handler, content: req.source });
    const env = cleanEnv(workDir);
    env.PYTHONPATH = [path.dirname(script), skillDir].join(path.delimiter);
    const base = {
      cwd: skillDir,
      env,
      timeoutMs: req.timeoutMs ?? DEFAULT_SUBPROCESS_TIMEOUT_MS,
      maxOutputBytes: req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    };
    const withWorkDir = JSON.stringify({ ...req.params, __workDir: workDir });
    const driven = req.language === 'python' && DEFINES_ENTRY.test(req.source);
    const result = driven
      ? await runProcess({
          ...base,
          command: req.python ?? 'python3',
          args: ['-c', PYTHON_DRIVER],
          stdin: JSON.stringify({ path: script, convention: req.convention, params: req.params, workDir, projectPath: skillDir }),
          resultFd: true,
        })
      : await runProcess({
          ...base,
          command: req.language === 'python' ? (req.python ?? 'python3') : (req.bash ?? 'bash'),
          args: [script, withWorkDir],
          stdin: withWorkDir,
        });
    if (result.timedOut) throw new RuntimeError('runtime/timeout', `${req.language} handler ${req.file} timed out after ${base.timeoutMs} ms`);
    if (result.outputTooLarge) {
      throw new RuntimeError('runtime/output-too-large', `${req.language} handler ${req.file} wrote more than ${base.maxOutputBytes} bytes`);
    }
    if (driven) {
      let parsed: { ok: boolean; value?: unknown; error?: string };
      try {
        parsed = JSON.parse(result.result);
      } catch {
        throw new RuntimeError('runtime/subprocess-failed', `python handler ${req.file} exited (${result.exitCode}) without a result: ${tail(result.stderr)}`);
      }
      if (!parsed.ok) throw new RuntimeError('tool/failed', parsed.error ?? 'python handler failed');
      return parsed.value ?? null;
    }
    if (result.exitCode !== 0) {
      throw new RuntimeError('runtime/subprocess-failed', `${req.language} handler ${req.file} exited with ${result.exitCode ?? result.signal}: ${tail(result.stderr)}`);
    }
    return parseOutput(result.stdout);
  } finally {
    await setModes(skillDir, 0o644, 0o755).catch(() => undefined); // read-only folders cannot be emptied
    await rm(root, { recursive: true, force: true });
  }
}

function tail(text: string): string {
  const t = text.trim();
  return t.length > 500 ? `...${t.slice(-500)}` : t || '(no output)';
}
