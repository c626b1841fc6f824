// What runs inside the isolate besides the handler itself: a prelude (plain JS, run as a
// script) that builds the guest-side `ctx` and `capabilities` objects on top of the
// sandbox's `host.<method>` functions, and a module wrapper that loads the handler
// (transpiled to CommonJS) and calls it with its format's convention.
// Only JSON crosses the boundary: errors come back as `{__skillyardError: {code, message}}`.

import type { CapabilityName } from './capabilities/types';
import type { GrantedToken, HandlerConvention } from './types';

export const GUEST_ENTRY = '__skillyard_entry';

/** Host methods per capability (the guest only gets the ones its tool was granted). */
export const CAPABILITY_METHODS: Record<CapabilityName, string[]> = {
  storage: ['storage_get', 'storage_put', 'storage_delete', 'storage_list'],
  token: ['token_sign', 'token_verify', 'token_mint'],
  environment: ['environment_get'],
  event: ['event_publish', 'event_subscribe', 'event_unsubscribe'],
  tool: ['tool_invoke'],
  ai: ['ai_complete'],
  object: ['object_create'],
  net: ['net_fetch'],
};

/** The JSON payload the wrapper receives as its single argument. */
export type GuestPayload = {
  convention: HandlerConvention;
  skill: string;
  tool: string;
  sourceName: string;
  args: unknown;
  tokens: GrantedToken[];
  granted: CapabilityName[];
  /** the capability list as the manifest wrote it, for error messages */
  declared: string[];
  workDir: string;
  projectPath: string;
  /** whether this layer has a downstream (`ctx.manager.next()`) */
  hasNext: boolean;
  /** the invocation's arguments (ctx.args) when they differ from `args` (middleware config) */
  ctxArgs?: unknown;
};

/** What the wrapper returns: a value, a `finish()`ed value, or an error. */
export type GuestEnvelope = { v?: unknown; f?: boolean; fv?: unknown } | { e: { code?: string; message: string } };

export const GUEST_PRELUDE = String.raw`
(function () {
  'use strict';
  const CAPS = ['storage', 'token', 'environment', 'event', 'tool', 'ai', 'object', 'net'];
  function codedError(code, message) { const e = new Error(message); e.code = code; return e; }
  function call(method, ...args) {
    // Read at call time: a warm context may see a new host object per job.
    const h = globalThis.host;
    if (!h || typeof h[method] !== 'function') return Promise.reject(codedError('capability/not-declared', 'host method ' + method + ' is not available to this tool'));
    return h[method](...args).then((r) => {
      if (r && typeof r === 'object' && r.__skillyardError) throw codedError(r.__skillyardError.code, r.__skillyardError.message);
      return r;
    });
  }
  function storage(ns) {
    return Object.freeze({
      namespace: ns,
      get: (key) => call('storage_get', ns, String(key)),
      put: (key, value) => call('storage_put', ns, String(key), value === undefined ? null : value),
      set: (key, value) => call('storage_put', ns, String(key), value === undefined ? null : value),
      delete: (key) => call('storage_delete', ns, String(key)),
      list: (prefix) => call('storage_list', ns, prefix === undefined ? '' : String(prefix)),
      use: (sub) => storage(String(sub)),
    });
  }
  function response(r) {
    return Object.freeze({ status: r.status, ok: r.status >= 200 && r.status < 300, headers: r.headers, url: r.url, body: r.body,
      text: async () => r.body, json: async () => JSON.parse(r.body) });
  }
  function notDeclared(p, name) {
    return codedError('capability/not-declared', 'capability "' + name + '" is not declared by tool ' + p.tool +
      ' (declared: ' + (p.declared.length ? p.declared.join(', ') : 'none') + '); add "' + name + '" to its capabilities');
  }
  function capabilities(p) {
    const t = {};
    const g = p.granted;
    if (g.includes('storage')) Object.assign(t, { storage: storage('default') });
    if (g.includes('token')) t.token = Object.freeze({
      sign: (payload, opts) => call('token_sign', payload === undefined ? null : payload, opts || {}),
      verify: (token) => call('token_verify', String(token)),
      mint: (req) => call('token_mint', req || {}),
      list: async () => p.tokens,
    });
    if (g.includes('environment')) t.environment = Object.freeze({ get: (name) => call('environment_get', String(name)) });
    if (g.includes('event')) t.event = Object.freeze({
      publish: (topic, data) => call('event_publish', String(topic), data === undefined ? null : data),
      subscribe: (topic, ref) => call('event_subscribe', String(topic), String(ref)),
      unsubscribe: (id) => call('event_unsubscribe', String(id)),
    });
    if (g.includes('tool')) t.tool = Object.freeze({ invoke: (ref, args) => call('tool_invoke', String(ref), args === undefined ? null : args) });
    if (g.includes('ai')) t.ai = Object.freeze({ complete: (req) => call('ai_complete', typeof req === 'string' ? { prompt: req } : req) });
    if (g.includes('object')) {
      const create = (type, props) => call('object_create', typeof type === 'object' && type !== null ? type : { type, props: props || {} });
      t.object = Object.freeze({ create, emit: create, render: create });
    }
    if (g.includes('net')) t.net = Object.freeze({ fetch: (url, init) => call('net_fetch', String(url), init || {}).then(response) });
    // The tokens this tool declared (data, not a capability).
    t.tokens = p.tokens;
    // Undeclared capabilities are absent ('storage' in capabilities is false) but touching one explains why.
    return new Proxy(Object.freeze(t), {
      get(target, prop) {
        if (prop in target) return target[prop];
        if (typeof prop === 'string' && CAPS.includes(prop)) throw notDeclared(p, prop);
        return undefined;
      },
    });
  }
  function makeCtx(p, state) {
    const caps = capabilities(p);
    const ctx = {
      locals: {},
      tokens: p.tokens,
      skill: Object.freeze({ name: p.skill }),
      tool: Object.freeze({ name: p.tool }),
      capabilities: caps,
      manager: Object.freeze({
        invoke: (ref, args) => call('invoke', String(ref), args === undefined ? null : args),
        finish: (result) => { state.finished = true; state.value = result; },
        next: () => p.hasNext ? call('next') : Promise.resolve(undefined),
      }),
    };
    // Middleware gets its own config as args; ctx.args is always the invocation's arguments.
    Object.defineProperty(ctx, 'args', { value: 'ctxArgs' in p ? p.ctxArgs : p.args, enumerable: true, writable: false, configurable: false });
    return ctx;
  }
  function pick(mod, names) {
    for (const n of names) {
      if (!n) continue;
      const f = n === 'default' ? (mod && mod.default !== undefined ? mod.default : (typeof mod === 'function' ? mod : undefined)) : mod && mod[n];
      if (typeof f === 'function') return f;
    }
    return undefined;
  }
  async function run(mod, p) {
    const state = { finished: false, value: undefined };
    let fn, args;
    if (p.convention === 'agent-apps') {
      fn = pick(mod, ['default']);
      args = [makeCtx(p, state), p.args];
    } else if (p.convention === 'skill-tools') {
      fn = pick(mod, ['default', 'handler']);
      args = [Object.assign({}, p.args, { __workDir: p.workDir })];
    } else if (p.convention === 'malv') {
      fn = pick(mod, ['default', p.sourceName, p.tool]);
      args = [p.args, capabilities(p)];
    } else {
      fn = pick(mod, ['execute', 'main', 'default']);
      args = [p.args, p.projectPath];
    }
    if (typeof fn !== 'function') {
      return { e: { code: 'tool/no-handler', message: 'handler of tool ' + p.tool + ' exports no callable function for the ' + p.convention + ' convention' } };
    }
    try {
      const v = await fn(...args);
      return state.finished ? { v, f: true, fv: state.value } : { v };
    } catch (err) {
      return { e: { code: err && typeof err.code === 'string' ? err.code : undefined, message: String(err && err.message !== undefined ? err.message : err) } };
    }
  }
  if (!globalThis.__skillyard) Object.defineProperty(globalThis, '__skillyard', { value: Object.freeze({ run }), configurable: false, writable: false });
})();
`;

/** Wraps handler code already transpiled to CommonJS into the ES module the sandbox loads. */
export function wrapGuestModule(cjs: string): string {
  return [
    'const module = { exports: {} };',
    'const exports = module.exports;',
    "const require = (name) => { throw new Error('imports are not available in the sandbox (tried to import ' + JSON.stringify(name) + ')'); };",
    '(function (module, exports, require) {',
    cjs,
    '})(module, exports, require);',
    `export function ${GUEST_ENTRY}(payload) { return globalThis.__skillyard.run(module.exports, payload); }`,
    '',
  ].join('\n');
}
