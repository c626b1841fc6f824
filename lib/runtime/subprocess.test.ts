import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runScriptHandler } from './subprocess';
import { closeSharedSandbox, createManager, sharedInProcessSandbox } from './testing/harness';
import { skill, tool } from './testing/skills';

afterAll(closeSharedSandbox);
const obj = { type: 'object' };

const ryePy = `# rye:signed:T:H:S:K
"""Write a file."""
__version__ = "1.0.0"
CONFIG_SCHEMA = {"type": "object"}

async def execute(params: dict, project_path: str) -> dict:
    print("noise on stdout must not corrupt the result")
    return {"success": True, "output": params["name"].upper(), "project": project_path}
`;
const skillToolsPy = `import json, sys, os

def handler(args):
    return {"count": len(args.get("text", "").split()), "work": args["__workDir"], "cwd": os.getcwd()}

if __name__ == "__main__":
    print(json.dumps(handler(json.load(sys.stdin))))
`;

describe('runScriptHandler', () => {
  it('is off unless allowed, and says so', async () => {
    await expect(runScriptHandler({ language: 'python', file: 'x.py', source: 'print(1)', convention: 'rye', params: {}, allowSubprocess: false })).rejects.toMatchObject({
      code: 'runtime/subprocess-disabled',
      message: expect.stringContaining('SKILLYARD_ALLOW_SUBPROCESS=1'),
    });
  });

  it('Rye python: execute(params, project_path) through the driver (async ok, stdout noise ignored)', async () => {
    const out = (await runScriptHandler({ language: 'python', file: '.ai/tools/w.py', source: ryePy, convention: 'rye', params: { name: 'ada' }, allowSubprocess: true })) as {
      output: string;
      project: string;
    };
    expect(out.output).toBe('ADA');
    expect(out.project).toMatch(/skillyard-run-.*\/skill$/); // the package root
    expect(existsSync(out.project)).toBe(false); // removed after
  });

  it('Skill Tools python: handler(args) with a scratch __workDir; the cwd is the package root', async () => {
    const out = (await runScriptHandler({
      language: 'python',
      file: 'scripts/count.py',
      source: skillToolsPy,
      convention: 'skill-tools',
      params: { text: 'a b c' },
      allowSubprocess: true,
    })) as Record<string, unknown>;
    expect(out.count).toBe(3);
    expect(out.work).toMatch(/skillyard-run-.*\/work$/);
    expect(out.cwd).toMatch(/skillyard-run-.*\/skill$/);
  });

  it('gets the whole package, read-only, with PYTHONPATH = its folder and the root (issue 14)', async () => {
    const files: Record<string, string | Uint8Array> = {
      'SKILL.md': '---\nname: pdf\ndescription: d\n---\n',
      'scripts/extract.py':
        'from helpers import shout\nfrom lib.words import count\nimport os, stat\n\ndef handler(args):\n    mode = stat.S_IMODE(os.stat("scripts/helpers.py").st_mode)\n    data = open("assets/data.bin", "rb").read()\n    return {"text": shout(args["text"]), "n": count(args["text"]), "mode": oct(mode), "bytes": list(data), "root": sorted(os.listdir("."))}\n',
      'scripts/helpers.py': 'def shout(s):\n    return s.upper()\n',
      'lib/__init__.py': '',
      'lib/words.py': 'def count(s):\n    return len(s.split())\n',
      'assets/data.bin': new Uint8Array([0, 255, 1]),
    };
    const read = async (p: string) => files[p];
    const out = (await runScriptHandler({
      language: 'python',
      file: 'scripts/extract.py',
      source: files['scripts/extract.py'] as string,
      files: Object.keys(files),
      readFile: read,
      convention: 'skill-tools',
      params: { text: 'a b' },
      allowSubprocess: true,
    })) as Record<string, unknown>;
    expect(out).toEqual({ text: 'A B', n: 2, mode: '0o444', bytes: [0, 255, 1], root: ['SKILL.md', 'assets', 'lib', 'scripts'] });
    const sh = await runScriptHandler({
      language: 'bash',
      file: 'bin/run.sh',
      source: '. ./bin/common.sh; greet; stat -c %a bin',
      files: ['bin/run.sh', 'bin/common.sh'],
      readFile: async () => 'greet() { echo hi; }\n',
      convention: 'skill-tools',
      params: {},
      allowSubprocess: true,
    });
    expect(sh).toBe('hi\n555');
    // a path that leaves the package is never written
    const safe = await runScriptHandler({
      language: 'bash',
      file: 'a.sh',
      source: 'ls -R . | tr "\\n" " "',
      files: ['../escape.sh', '/etc/x', 'ok.txt'],
      readFile: async () => 'x',
      convention: 'skill-tools',
      params: {},
      allowSubprocess: true,
    });
    expect(String(safe)).not.toContain('escape');
  });

  it('bash: args JSON on stdin and argv[1], stdout parsed as JSON', async () => {
    const out = await runScriptHandler({
      language: 'bash',
      file: 's.sh',
      source: 'read -r line; echo "{\\"len\\": ${#1}, \\"same\\": $([ "$line" = "$1" ] && echo true || echo false)}"',
      convention: 'skill-tools',
      params: { a: 1 },
      allowSubprocess: true,
    });
    expect(out).toMatchObject({ same: true });
  });

  it('has a clean environment: PATH, HOME (= workDir), LANG and PYTHONPATH only, no inherited secrets', async () => {
    process.env.SKILLYARD_TEST_SECRET = 'leak-me';
    try {
      const out = (await runScriptHandler({
        language: 'bash',
        file: 'env.sh',
        source: 'env | cut -d= -f1 | sort | tr "\\n" " "; echo; echo "$HOME" ',
        convention: 'skill-tools',
        params: {},
        allowSubprocess: true,
      })) as string;
      const [names, home] = out.split('\n');
      expect(
        names
          .trim()
          .split(' ')
          .filter((n) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(n)),
      ).toEqual(['HOME', 'LANG', 'PATH', 'PYTHONPATH']);
      expect(home).toMatch(/skillyard-run-.*\/work$/);
    } finally {
      delete process.env.SKILLYARD_TEST_SECRET;
    }
  });

  it('kills a handler at its timeout (and its children)', async () => {
    const pidFile = path.join(os.tmpdir(), `skillyard-child-${process.pid}-${Date.now()}.pid`);
    await expect(
      runScriptHandler({
        language: 'bash',
        file: 'slow.sh',
        source: `sleep 60 & echo $! > ${pidFile}; sleep 60`,
        convention: 'skill-tools',
        params: {},
        allowSubprocess: true,
        timeoutMs: 300,
      }),
    ).rejects.toMatchObject({ code: 'runtime/timeout' });
    const child = Number(fs.readFileSync(pidFile, 'utf8'));
    fs.rmSync(pidFile, { force: true });
    // a killed child nobody reaps stays a zombie (state Z): that counts as gone
    const alive = () => {
      try {
        return fs.readFileSync(`/proc/${child}/stat`, 'utf8').split(' ')[2] !== 'Z';
      } catch {
        return false;
      }
    };
    // the kill is a signal: give the child a moment to go (bounded), then it must be gone
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
  });

  it('refuses output beyond the limit; a failing script reports its stderr', async () => {
    await expect(
      runScriptHandler({
        language: 'bash',
        file: 'big.sh',
        source: 'head -c 100000 /dev/zero | tr "\\0" x',
        convention: 'skill-tools',
        params: {},
        allowSubprocess: true,
        maxOutputBytes: 1000,
      }),
    ).rejects.toMatchObject({
      code: 'runtime/output-too-large',
    });
    await expect(
      runScriptHandler({ language: 'bash', file: 'fail.sh', source: 'echo nope >&2; exit 3', convention: 'skill-tools', params: {}, allowSubprocess: true }),
    ).rejects.toMatchObject({
      code: 'runtime/subprocess-failed',
      message: 'bash handler fail.sh exited with 3: nope',
    });
  });

  it('a python exception becomes tool/failed with its type and message', async () => {
    await expect(
      runScriptHandler({
        language: 'python',
        file: 'e.py',
        source: 'def execute(p, path):\n    raise ValueError("bad input")\n',
        convention: 'rye',
        params: {},
        allowSubprocess: true,
      }),
    ).rejects.toMatchObject({
      code: 'tool/failed',
      message: 'ValueError: bad input',
    });
  });
});

describe('python and bash tools through the manager', () => {
  const s = skill(
    'py',
    [tool('write', { params: obj, handler: { kind: 'python', ref: '.ai/tools/w.py' } }), tool('fails', { params: obj, handler: { kind: 'python', ref: 'f.py' } })],
    {
      format: 'rye',
      files: { '.ai/tools/w.py': ryePy, 'f.py': 'def execute(p, path):\n    return {"success": False, "error": "no such file"}\n' },
    },
  );
  it('off by default with runtime/subprocess-disabled', async () => {
    await expect(createManager(sharedInProcessSandbox(), [s]).manager.invoke('write', { name: 'x' })).rejects.toMatchObject({ code: 'runtime/subprocess-disabled' });
  });
  it('on: runs, and Rye {success:false} is a tool failure', async () => {
    const { manager } = createManager(sharedInProcessSandbox(), [s], { allowSubprocess: true });
    expect(await manager.invoke('write', { name: 'x' })).toMatchObject({ success: true, output: 'X' });
    await expect(manager.invoke('fails', {})).rejects.toMatchObject({ code: 'tool/failed', message: "'py/fails' failed: no such file" });
  });
});
