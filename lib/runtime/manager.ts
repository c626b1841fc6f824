// createToolManager: the kernel. Every invocation, from outside or from a tool, takes the
// same path (SPEC section 3): resolve ref → visibility → allowed-tools → token gate →
// params validation → onion [host middleware, skill middleware, handler] → returns validation.

import type { SandboxJob } from '../sandbox/types';
import type { ToolManifest } from '../skills/types';
import { checkAllowedTools, mayListTool, parseAllowedTools, type AllowedToolsSpec } from './allowed-tools';
import { callCapability, grantedCapabilities, hostMethodsFor } from './capabilities/grant';
import type { CapabilityName, CapabilityScope } from './capabilities/types';
import { compileHandlerModule, compileHandlerPackage, sourceHash } from './compile';
import { conventionFor, ryeFailure } from './conventions';
import { markdownBody, parseDelegate } from './delegates';
import { RuntimeError, isRuntimeErrorCode, toRuntimeError } from './errors';
import { GUEST_ENTRY, GUEST_PRELUDE, type GuestEnvelope, type GuestPayload } from './guest';
import { createContext, runOnion, type Layer } from './pipeline';
import { createRegistry, type ToolEntry } from './registry';
import { compileSchema, formatSchemaErrors, resolveJsonSchema } from './schema';
import { runScriptHandler } from './subprocess';
import { checkTokenGate, tokenGateError } from './tokens';
import { planFor } from './planner';
import { callMcpTool } from './mcp-handler';
import type { GrantedToken, HeldToken, LoadedSkill, ToolContext, ToolManager, ToolManagerOptions, ToolSummary } from './types';

export const DEFAULT_MAX_DEPTH = 8;
export const DEFAULT_MAX_CALLS = 64;

/** One invocation in a call tree. */
type Frame = { entry: ToolEntry; depth: number; tree: { calls: number } };
/** Who makes a call: nobody (outside), or a skill (its tool, or an event delivery). */
type Origin = { skill: LoadedSkill; depth: number; tree: { calls: number } } | null;

export function createToolManager(opts: ToolManagerOptions): ToolManager {
  const registry = createRegistry(opts.skills);
  const held: HeldToken[] = [...opts.caller.tokens];
  const providers = opts.providers ?? {};
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxCalls = opts.maxCalls ?? DEFAULT_MAX_CALLS;
  const outsideSpec = parseAllowedTools(opts.allowedTools ?? null);
  const skillSpecs = new Map<LoadedSkill, AllowedToolsSpec | null>(opts.skills.map((s) => [s, parseAllowedTools(s.manifest.allowedTools)]));
  const moduleCache = new Map<string, Promise<string>>();
  // Per-tool facts that never change while the manager lives (computed on first use).
  const statics = new Map<ToolEntry, { convention: ReturnType<typeof conventionFor>; granted: CapabilityName[]; hostMethods: string[] }>();
  const staticsOf = (entry: ToolEntry) => {
    let s = statics.get(entry);
    if (!s) {
      const convention = conventionFor(entry.skill.manifest, entry.tool);
      const granted = grantedCapabilities(entry.tool);
      const hostMethods = hostMethodsFor(granted);
      if (convention === 'agent-apps') hostMethods.push('invoke', 'next');
      s = { convention, granted, hostMethods };
      statics.set(entry, s);
    }
    return s;
  };

  const namesOf = (e: ToolEntry) => [e.tool.name, e.ref];
  const schemaOf = (s: Record<string, unknown> | null) => resolveJsonSchema(s, opts.resolveContext);

  async function invokeFrom(origin: Origin, ref: string, args: unknown): Promise<unknown> {
    const depth = origin ? origin.depth + 1 : 0;
    const tree = origin ? origin.tree : { calls: 0 };
    if (depth > maxDepth) throw new RuntimeError('runtime/depth-exceeded', `tool calls nest deeper than ${maxDepth} (calling '${ref}')`);
    if (++tree.calls > maxCalls) throw new RuntimeError('runtime/too-many-calls', `more than ${maxCalls} tool calls in one invocation`);

    // 1. resolve
    const entry = registry.resolve(ref, origin?.skill ?? null);
    const { skill, tool } = entry;
    // 2. visibility
    if (tool.visibility === 'hidden' && origin?.skill !== skill) {
      throw new RuntimeError('tool/hidden', `tool '${entry.ref}' is hidden: only tools of skill '${skill.manifest.name}' can invoke it`);
    }
    // 3. allowed-tools: the outside caller's spec, or the calling skill's own (calls within one skill are free)
    if (origin?.skill !== skill) {
      const spec = origin ? (skillSpecs.get(origin.skill) ?? null) : outsideSpec;
      const decision = checkAllowedTools(spec, namesOf(entry), args);
      if (!decision.allowed) {
        const who = origin ? `skill '${origin.skill.manifest.name}'` : 'this caller';
        throw new RuntimeError('tool/not-allowed', `${who} may not invoke '${entry.ref}': ${decision.reason}`);
      }
    }
    // 4. token gate
    const gate = checkTokenGate(tool, held);
    if (!gate.ok) throw tokenGateError(entry.ref, gate.missing);
    // 5. params
    const params = validateParams(entry, args);

    const frame: Frame = { entry, depth, tree };
    const started = Date.now();
    opts.onEvent?.({ type: 'tool-start', skill: skill.manifest.name, tool: tool.name, depth, timestamp: started });
    try {
      const ctx = createContext({
        args: params,
        skill: { name: skill.manifest.name, format: skill.manifest.format },
        tool: { name: tool.name, role: tool.role },
        caller: { id: opts.caller.id, kind: opts.caller.kind },
        tokens: gate.granted,
        depth,
        invoke: (r, a) => invokeFrom({ skill, depth, tree }, r, a),
      });
      const layers: Layer[] = [
        ...(opts.middleware ?? []).map((m) => ({ name: m.name, args: m.args, fn: m.fn })),
        ...skillMiddleware(entry, frame, ctx),
        { name: tool.name, args: params, fn: (lctx, a) => runHandler(entry, frame, lctx, a, gate.granted, params, false) },
      ];
      const result = await runOnion(ctx, layers);
      // 7. returns
      validateReturns(entry, result);
      opts.onEvent?.({ type: 'tool-end', skill: skill.manifest.name, tool: tool.name, depth, timestamp: Date.now(), ms: Date.now() - started, ok: true });
      return result;
    } catch (err) {
      const e = toRuntimeError(err, 'tool/failed');
      opts.onEvent?.({ type: 'tool-end', skill: skill.manifest.name, tool: tool.name, depth, timestamp: Date.now(), ms: Date.now() - started, ok: false, code: e.code });
      throw e;
    }
  }

  function validateParams(entry: ToolEntry, args: unknown): unknown {
    const schema = schemaOf(entry.tool.params);
    if (!schema) return args;
    const value = args === undefined || args === null ? {} : structuredClone(args);
    let validate;
    try {
      validate = compileSchema(schema);
    } catch (err) {
      throw new RuntimeError('schema/invalid', `params schema of '${entry.ref}' does not compile: ${(err as Error).message}`);
    }
    if (!validate(value)) throw new RuntimeError('params/invalid', `invalid arguments for '${entry.ref}': ${formatSchemaErrors(validate.errors)}`);
    return value;
  }

  function validateReturns(entry: ToolEntry, result: unknown): void {
    const schema = schemaOf(entry.tool.returns);
    if (!schema) return;
    let validate;
    try {
      validate = compileSchema(schema, false);
    } catch (err) {
      throw new RuntimeError('schema/invalid', `returns schema of '${entry.ref}' does not compile: ${(err as Error).message}`);
    }
    if (!validate(result ?? null)) {
      throw new RuntimeError('returns/invalid', `'${entry.ref}' returned a value that does not match its returns schema: ${formatSchemaErrors(validate.errors)}`);
    }
  }

  // Plain metadata keys of the skill that name a middleware tool activate it, with the value as its args.
  function skillMiddleware(entry: ToolEntry, frame: Frame, ctx: ToolContext): Layer[] {
    if (entry.tool.role === 'middleware') return [];
    const layers: Layer[] = [];
    for (const [key, config] of Object.entries(entry.skill.manifest.metadata ?? {})) {
      if (key.startsWith('$')) continue;
      const name = key.replace(/_/g, '-');
      const mw =
        registry.entries.find((e) => e.skill === entry.skill && e.tool.name === name && e.tool.role === 'middleware') ??
        registry.entries.find((e) => e.tool.name === name && e.tool.role === 'middleware' && e.tool.visibility !== 'hidden');
      if (!mw) continue;
      layers.push({
        name: mw.ref,
        args: config,
        fn: (lctx, a) => {
          const gate = checkTokenGate(mw.tool, held);
          if (!gate.ok) throw tokenGateError(mw.ref, gate.missing);
          return runHandler(mw, { ...frame, entry: mw }, lctx, a, gate.granted, ctx.args, true);
        },
      });
    }
    return layers;
  }

  async function runHandler(
    entry: ToolEntry,
    frame: Frame,
    lctx: ToolContext,
    args: unknown,
    tokens: GrantedToken[],
    ctxArgs: unknown,
    isMiddleware: boolean,
  ): Promise<unknown> {
    const { skill, tool } = entry;
    const { convention } = staticsOf(entry);
    let ref = tool.handler.ref;
    let kind = tool.handler.kind;
    if (ref?.startsWith('inline://')) {
      const d = parseDelegate(ref);
      if (d.kind === 'markdown') return markdownBody(d.markdown);
      if (d.kind === 'code') return runSandboxed(entry, frame, lctx, args, tokens, ctxArgs, isMiddleware, `inline:${d.ref}`, () => compileHandlerModule(d.source, 'js'));
      ref = d.path;
      kind = kindOfPath(d.path) ?? kind;
    }
    switch (kind) {
      case 'js':
      case 'ts':
      case 'inline-code': {
        const path = requireRef(entry, ref);
        const key = `file:${skill.manifest.name}@${skill.manifest.version ?? ''}:${path}`;
        const files = skill.manifest.files.includes(path) ? skill.manifest.files : [...skill.manifest.files, path];
        return runSandboxed(entry, frame, lctx, args, tokens, ctxArgs, isMiddleware, key, () =>
          compileHandlerPackage(path, files, (p) => readPackageFile(skill, p)),
        );
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
        const path = requireRef(entry, ref);
        const value = await runScriptHandler({
          language: kind,
          file: path,
          source: await readPackageFile(skill, path),
          convention,
          params: (args && typeof args === 'object' ? args : {}) as Record<string, unknown>,
          allowSubprocess: opts.allowSubprocess ?? false,
          timeoutMs: tool.timeoutMs ?? opts.subprocess?.timeoutMs,
          maxOutputBytes: opts.subprocess?.maxOutputBytes,
          python: opts.subprocess?.python,
          bash: opts.subprocess?.bash,
        });
        return checkRye(entry, convention, value);
      }
      case 'none':
        return {
          message: `Tool '${tool.name}' has no handler; load skill '${skill.manifest.name}' and follow its instructions.`,
          instructions: skill.manifest.instructions ?? '',
        };
      case 'mcp':
        return callMcpTool(skill.manifest, tool, args, { net: providers.net, allowSubprocess: opts.allowSubprocess ?? false });
      default:
        throw new RuntimeError('runtime/unsupported-handler', `tool '${entry.ref}' has an unknown handler kind '${String(kind)}'`);
    }
  }

  function checkRye(entry: ToolEntry, convention: string, value: unknown): unknown {
    if (convention !== 'rye') return value;
    const failure = ryeFailure(value);
    if (failure !== null) throw new RuntimeError('tool/failed', `'${entry.ref}' failed: ${failure}`, { result: value });
    return value;
  }

  async function runSandboxed(
    entry: ToolEntry,
    frame: Frame,
    lctx: ToolContext,
    args: unknown,
    tokens: GrantedToken[],
    ctxArgs: unknown,
    hasNext: boolean,
    cacheKey: string,
    compile: () => Promise<string>,
  ): Promise<unknown> {
    const { skill, tool } = entry;
    let mod = moduleCache.get(cacheKey);
    if (!mod) {
      mod = compile();
      mod.catch(() => moduleCache.delete(cacheKey));
      moduleCache.set(cacheKey, mod);
    }
    const source = await mod;
    const { convention, granted, hostMethods } = staticsOf(entry);
    const payload: GuestPayload & { ctxArgs: unknown } = {
      convention,
      skill: skill.manifest.name,
      tool: tool.name,
      sourceName: tool.sourceName,
      args: args ?? null,
      ctxArgs: ctxArgs ?? null,
      tokens,
      granted,
      declared: tool.capabilities ?? [],
      workDir: opts.workDir ?? '/workspace',
      projectPath: opts.workDir ?? '/workspace',
      hasNext,
    };
    const job: SandboxJob = {
      // Warm isolates are per caller, tool and code: state never leaks across callers.
      key: `${opts.caller.kind}:${opts.caller.id}|${entry.ref}|${sourceHash(source)}`,
      source,
      entry: GUEST_ENTRY,
      args: [payload],
      hostMethods,
      prelude: GUEST_PRELUDE,
      limits: { ...opts.limits, ...(tool.timeoutMs ? { wallMs: tool.timeoutMs } : {}) },
    };
    const scope: CapabilityScope = { callerId: opts.caller.id, callerKind: opts.caller.kind, skill: skill.manifest.name, tool: tool.name };
    const origin = { skill, depth: frame.depth, tree: frame.tree };
    const onHostCall = async (method: string, callArgs: unknown[]) => {
      try {
        return await answerHostCall(method, callArgs, { entry, granted, scope, origin, lctx, convention });
      } catch (err) {
        const e = toRuntimeError(err);
        return { __skillyardError: { code: e.code, message: e.message } };
      }
    };
    const out = await opts.sandbox.run(job, onHostCall);
    if (!out.ok) {
      const code = isRuntimeErrorCode(out.error.code) ? out.error.code : 'tool/failed';
      throw new RuntimeError(code, `'${entry.ref}': ${out.error.message}`);
    }
    const env = (out.value ?? {}) as GuestEnvelope;
    if ('e' in env) {
      const code = env.e.code && isRuntimeErrorCode(env.e.code) ? env.e.code : 'tool/failed';
      // Errors raised by the kernel for a nested call keep their own message; the tool's own throws name the tool.
      throw new RuntimeError(code, code === 'tool/failed' ? `'${entry.ref}' failed: ${env.e.message}` : env.e.message);
    }
    const value = env.f && env.v === undefined ? env.fv : env.v;
    checkRye(entry, convention, value);
    if (env.f) {
      lctx.manager.finish(value);
      return value;
    }
    return value;
  }

  async function answerHostCall(
    method: string,
    args: unknown[],
    c: {
      entry: ToolEntry;
      granted: CapabilityName[];
      scope: CapabilityScope;
      origin: { skill: LoadedSkill; depth: number; tree: { calls: number } };
      lctx: ToolContext;
      convention: string;
    },
  ): Promise<unknown> {
    if (method === 'invoke' || method === 'next') {
      if (c.convention !== 'agent-apps') throw new RuntimeError('capability/denied', `ctx.manager.${method} is only available to agent-apps tools`);
      if (method === 'next') return (await c.lctx.manager.next()) ?? null;
      return (await invokeFrom(c.origin, String(args[0]), args[1] ?? undefined)) ?? null;
    }
    const result = await callCapability(
      {
        skill: c.entry.skill,
        tool: c.entry.tool,
        scope: c.scope,
        granted: c.granted,
        providers,
        invoke: (ref, a) => invokeFrom(c.origin, ref, a),
        deliver: (subscriberSkill, ref, a) => {
          const sub = opts.skills.find((s) => s.manifest.name === subscriberSkill) ?? c.entry.skill;
          return invokeFrom({ skill: sub, depth: c.origin.depth, tree: c.origin.tree }, ref, a);
        },
        addHeldToken: (t) => held.push(t),
      },
      method,
      args,
    );
    return result ?? null;
  }

  function summary(e: ToolEntry): ToolSummary {
    return {
      ref: e.ref,
      skill: e.skill.manifest.name,
      name: e.tool.name,
      description: e.tool.description,
      role: e.tool.role,
      params: schemaOf(e.tool.params),
      returns: schemaOf(e.tool.returns),
      capabilities: [...(e.tool.capabilities ?? [])],
      tags: [...(e.tool.tags ?? [])],
    };
  }

  return {
    invoke: (ref, args) => invokeFrom(null, ref, args),
    listVisibleTools: () =>
      registry.entries
        .filter((e) => e.tool.visibility !== 'hidden' && mayListTool(outsideSpec, namesOf(e)) && checkTokenGate(e.tool, held).ok)
        .map(summary),
    describe(ref) {
      const e = registry.resolve(ref, null);
      if (e.tool.visibility === 'hidden') throw new RuntimeError('tool/hidden', `tool '${e.ref}' is hidden`);
      return summary(e);
    },
    plan: (ref) => planFor(registry, registry.resolve(ref, null), held),
    heldTokens: () => [...held],
  };
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
