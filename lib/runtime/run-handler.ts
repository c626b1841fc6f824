// The innermost layer of the onion: run a tool's handler by its kind (sandboxed JS/TS,
// markdown, a script in a subprocess, or none) and apply the rye success convention.

import type { ToolManifest } from '../skills';
import { compileHandlerModule, compileHandlerPackage } from './compile';
import { ryeFailure } from './conventions';
import { markdownBody, parseDelegate } from './delegates';
import { callMcpTool } from './mcp-handler';
import { RuntimeError } from './errors';
import { staticsOf, type Frame, type KernelState } from './kernel-state';
import { runSandboxed } from './run-sandboxed';
import { skillKey } from './skill-key';
import { runScriptHandler } from './subprocess';
import type { ToolEntry } from './tool-index';
import type { GrantedToken, LoadedSkill, ToolContext } from './types';

/** One handler run: the tool, where it sits in the call tree, and what it receives. */
export type HandlerCall = {
  entry: ToolEntry;
  frame: Frame;
  /** the layer's context (for finish/next) */
  lctx: ToolContext;
  /** this layer's args (a middleware's config, or the tool's validated params) */
  args: unknown;
  tokens: GrantedToken[];
  /** the invocation's arguments (ctx.args) */
  ctxArgs: unknown;
  isMiddleware: boolean;
};

export async function runHandler(k: KernelState, call: HandlerCall): Promise<unknown> {
  const { skill, tool } = call.entry;
  const { convention } = staticsOf(k, call.entry);
  let ref = tool.handler.ref;
  let kind = tool.handler.kind;
  if (ref?.startsWith('inline://')) {
    const d = parseDelegate(ref);
    if (d.kind === 'markdown') return markdownBody(d.markdown);
    if (d.kind === 'code') return runSandboxed(k, call, `inline:${d.ref}`, () => compileHandlerModule(d.source, 'js'));
    ref = d.path;
    kind = kindOfPath(d.path) ?? kind;
  }
  switch (kind) {
    case 'js':
    case 'ts':
    case 'inline-code': {
      const path = requireRef(call.entry, ref);
      // the revision (a stored version's id) makes the key safe to share across managers
      const key = `file:${skillKey(skill)}@${skill.revision ?? skill.manifest.version ?? ''}:${path}`;
      const files = skill.manifest.files.includes(path) ? skill.manifest.files : [...skill.manifest.files, path];
      return runSandboxed(k, call, key, () => compileHandlerPackage(path, files, (p) => readPackageFile(skill, p)));
    }
    case 'markdown': {
      if (ref && !ref.endsWith('.skill.md')) {
        try {
          return markdownBody(await skill.readFile(ref));
        } catch {
          /* fall back to the manifest's instructions */
        }
      }
      return skill.manifest.instructions ?? '';
    }
    case 'python':
    case 'bash': {
      const path = requireRef(call.entry, ref);
      const { opts } = k;
      const value = await runScriptHandler({
        language: kind,
        file: path,
        source: await readPackageFile(skill, path),
        // the whole package, read-only, root as cwd (subprocess.ts)
        files: skill.manifest.files,
        readFile: (p) => (skill.readBytes ? skill.readBytes(p) : skill.readFile(p)),
        convention,
        params: (call.args && typeof call.args === 'object' ? call.args : {}) as Record<string, unknown>,
        allowSubprocess: opts.allowSubprocess ?? false,
        timeoutMs: tool.timeoutMs ?? opts.subprocess?.timeoutMs,
        maxOutputBytes: opts.subprocess?.maxOutputBytes,
        python: opts.subprocess?.python,
        bash: opts.subprocess?.bash,
      });
      return checkRye(call.entry, convention, value);
    }
    case 'none':
      return {
        message: `Tool '${tool.name}' has no handler; load skill '${skill.manifest.name}' and follow its instructions.`,
        instructions: skill.manifest.instructions ?? '',
      };
    case 'mcp':
      return callMcpTool(skill.manifest, tool, call.args, {
        net: k.providers.net,
        allowSubprocess: k.opts.allowSubprocess ?? false,
        // a stdio server runs in its package, read-only, root as cwd (subprocess.ts)
        package: { files: skill.manifest.files, readFile: (p) => (skill.readBytes ? skill.readBytes(p) : skill.readFile(p)) },
      });
    default:
      throw new RuntimeError('runtime/unsupported-handler', `tool '${call.entry.ref}' has an unknown handler kind '${String(kind)}'`);
  }
}

/** Rye tools report failure in their result (`{success: false}`): that fails the call. */
export function checkRye(entry: ToolEntry, convention: string, value: unknown): unknown {
  if (convention !== 'rye') return value;
  const failure = ryeFailure(value);
  if (failure !== null) throw new RuntimeError('tool/failed', `'${entry.ref}' failed: ${failure}`, { result: value });
  return value;
}

function requireRef(entry: ToolEntry, ref: string | null): string {
  if (!ref) throw new RuntimeError('tool/no-handler', `tool '${entry.ref}' names no handler file`);
  return ref.replace(/^\.\//, '');
}

function kindOfPath(path: string): ToolManifest['handler']['kind'] | null {
  if (/\.(c|m)?ts$/.test(path)) return 'ts';
  if (/\.(c|m)?js$/.test(path)) return 'js';
  if (/\.py$/.test(path)) return 'python';
  if (/\.sh$/.test(path)) return 'bash';
  if (/\.md$/.test(path)) return 'markdown';
  return null;
}

async function readPackageFile(skill: LoadedSkill, path: string): Promise<string> {
  try {
    return await skill.readFile(path);
  } catch (err) {
    throw new RuntimeError('runtime/file-not-found', `skill '${skill.manifest.name}' has no readable file '${path}': ${(err as Error).message}`);
  }
}
