// Guest half of the bridge: a script, compiled once per process with V8's code cache and
// run first in every new context, whose value is a factory for the bridge functions.
// There are no host callbacks at all: every guest segment is a host call of `run` or
// `settle`, which returns an "outbox" (an array the bridge fills while the
// segment and its microtasks run; isolated-vm copies it out after the microtask
// checkpoint) holding the host calls the guest requested and, once the job ended, its
// outcome. The outbox lives only in the factory's closure and carries only strings and
// numbers.
//
// Outbox: an array [q, s, j, g, x, ...calls]: q/s/j/g the seq of the finished job (0 while
//         it runs), its status, result JSON and globals JSON; x 1 when the host-call limit
//         tripped; then four slots per requested host call: seq, callId, method, argsJson.
//         An array with own elements copies faster than an object (~0.7 µs a segment).
// `run(seq, argsJson)` with just two arguments runs the entry with the limits of the
// isolate's previous `run`; the host passes all seven (seq, argsJson, entry, globalsJson,
// returnJson, maxCalls, maxChars) when they differ or the job has globals: each argument
// costs a copy across the boundary (~1.5 µs for five).
// Returns { init, run, settle, setNamespace } (the host keeps References to these).
// `init(methodsJson)` installs the frozen `host` object once per context; a blank spare
// isolate has run the factory but not init, so it can serve any job.
//
// The bridge's functions are parenthesised so V8 compiles them eagerly: the code cache
// made at the first compile then holds them too, and a cold isolate does not compile
// them lazily on its first job.
//
// Intrinsics are captured before any guest code runs, so a guest that later replaces
// JSON, Promise or Reflect in its own (warm) context cannot redirect the bridge.
export const BOOTSTRAP_SOURCE = String.raw`
(function () {
'use strict';
const G = globalThis;
const parse = JSON.parse, stringify = JSON.stringify;
const PromiseCtor = Promise, then = Promise.prototype.then, resolveP = Promise.resolve.bind(Promise);
const ErrorCtor = Error, StringCtor = String;
const apply = Reflect.apply, ownKeys = Object.keys, create = Object.create;
const defineProperty = Object.defineProperty, freeze = Object.freeze;
const WeakSetCtor = WeakSet, wsAdd = WeakSet.prototype.add, wsHas = WeakSet.prototype.has;

// No shared memory, no WebAssembly (its compiler is a large attack surface), no Atomics.
for (const name of ['SharedArrayBuffer', 'WebAssembly', 'Atomics']) delete G[name];

// Resizable ArrayBuffers reserve their maximum up front and commit pages on resize()
// outside the isolate's allocator: they escape memoryLimit and the heap statistics. So
// the guest's ArrayBuffer refuses maxByteLength, and resize() does not exist. Fixed-size
// buffers still go through isolated-vm's limited allocator and count against the limit.
{
  const NativeArrayBuffer = G.ArrayBuffer, abProto = NativeArrayBuffer.prototype;
  const construct = Reflect.construct, TypeErrorCtor = TypeError;
  const ArrayBuffer = function ArrayBuffer(length) {
    if (new.target === undefined) throw new TypeErrorCtor("Constructor ArrayBuffer requires 'new'");
    const options = arguments.length > 1 ? arguments[1] : undefined;
    if (options !== null && (typeof options === 'object' || typeof options === 'function') && options.maxByteLength !== undefined) {
      throw new TypeErrorCtor('resizable ArrayBuffers are not available in the sandbox');
    }
    return construct(NativeArrayBuffer, [length], new.target);
  };
  const descriptors = Object.getOwnPropertyDescriptors(NativeArrayBuffer);
  for (const name of Reflect.ownKeys(descriptors)) {
    if (name === 'length' || name === 'name' || name === 'prototype') continue;
    defineProperty(ArrayBuffer, name, descriptors[name]);
  }
  defineProperty(ArrayBuffer, 'prototype', { value: abProto, writable: false, enumerable: false, configurable: false });
  defineProperty(abProto, 'constructor', { value: ArrayBuffer, writable: true, enumerable: false, configurable: true });
  delete abProto.resize;
  defineProperty(G, 'ArrayBuffer', { value: ArrayBuffer, writable: true, enumerable: false, configurable: true });
}

const MAX_MESSAGE = 2000;
let seq = 0;              // current job; 0 = no job (module top level, between jobs)
let calls = 0, maxCalls = 0, tripped = false;
let nextId = 0;
let pending = null;
let ns = null;
// [q, s, j, g, x, then 4 slots per host call]: own elements only, so no setter a guest put
// on Array.prototype is ever reached (appends go through defineProperty)
let box = [0, undefined, undefined, undefined, 0];
const newBox = (function newBox() { box = [0, undefined, undefined, undefined, 0]; return box; });
// Property descriptors the bridge hands to defineProperty once guest code may have run
// have a null prototype: reading a descriptor looks up "get" and "set", and an accessor a
// guest put on Object.prototype would otherwise be called with the descriptor as its receiver
// (then decide what the bridge appends; escape case "descriptors the bridge uses").
const dataDescriptor = (function dataDescriptor(value, enumerable) {
  const d = create(null);
  d.value = value; d.writable = true; d.enumerable = enumerable; d.configurable = true;
  return d;
});
const dataSlot = dataDescriptor(undefined, true);
const append = (function append(value) { dataSlot.value = value; defineProperty(box, box.length, dataSlot); dataSlot.value = undefined; });
const send = (function send(s, id, method, json) { append(s); append(id); append(method); append(json); });
const done = (function done(s, status, json, gjson) {
  if (status === 'calls') { box[4] = 1; return; }
  box[0] = s; box[1] = status; box[2] = json; box[3] = gjson;
});
const hostErrors = new WeakSetCtor();

const callHost = (function callHost(method, args) {
  if (seq === 0) return PromiseCtor.reject(new ErrorCtor('host.' + method + ': host calls are only available while a job runs'));
  if (++calls > maxCalls) {
    // The job fails as soon as this segment returns; a rejection nobody handles would
    // make the segment throw instead and hide which limit was hit.
    if (!tripped) { tripped = true; done(seq, 'calls', undefined, undefined); }
    return new PromiseCtor(() => {});
  }
  let json;
  try { json = stringify(args); } catch (e) {
    return PromiseCtor.reject(new ErrorCtor('host.' + method + ': arguments must be JSON-serialisable'));
  }
  const id = ++nextId;
  const s = seq;
  return new PromiseCtor((resolve, reject) => { if (pending === null) pending = create(null); pending[id] = [resolve, reject]; send(s, id, method, json); });
});

const init = (function init(methodsJson) {
  const methodNames = parse(methodsJson);
  const host = create(null);
  for (const name of methodNames) {
    const method = name;
    const fn = { [method]: function (...args) { return callHost(method, args); } }[method];
    defineProperty(host, method, { value: fn, enumerable: true });
  }
  freeze(host);
  defineProperty(G, 'host', { value: host, writable: false, configurable: false, enumerable: false });
});

const settle = (function settle(id, ok, payload) {
  newBox();
  const p = pending === null ? undefined : pending[id];
  if (p === undefined) return box;
  delete pending[id];
  if (ok) { p[0](payload === undefined ? undefined : parse(payload)); return box; }
  const info = parse(payload);
  const error = new ErrorCtor(StringCtor(info.message));
  if (typeof info.code === 'string') error.code = info.code;
  apply(wsAdd, hostErrors, [error]);
  p[1](error);
  return box;
});

const describe = (function describe(err) {
  let text;
  try {
    if ((typeof err === 'object' && err !== null) || typeof err === 'function') {
      const name = err.name, message = err.message;
      text = message === undefined ? StringCtor(err)
        : (typeof name === 'string' && name !== '' ? name + ': ' : '') + StringCtor(message);
    } else {
      text = 'guest threw ' + (typeof err === 'string' ? stringify(err) : StringCtor(err));
    }
  } catch (e) {
    text = 'guest threw a value that cannot be described';
  }
  return typeof text === 'string' && text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) + '...' : StringCtor(text);
});

const setNamespace = (function setNamespace(namespace) { ns = namespace; });

let lastEntry = '', lastMax = 0, lastMaxChars = 0;
const run = (function run(s, argsJson, entry, globalsJson, returnJson, max, maxChars) {
  newBox();
  if (arguments.length > 2) { lastEntry = entry; lastMax = max; lastMaxChars = maxChars; }
  else { entry = lastEntry; max = lastMax; maxChars = lastMaxChars; globalsJson = undefined; returnJson = undefined; }
  seq = s; calls = 0; maxCalls = max; tripped = false;
  pending = null;
  const wanted = returnJson === undefined ? null : parse(returnJson);
  let finished = false;
  const finish = (status, value) => {
    if (finished || seq !== s) return;
    finished = true;
    let json, gjson;
    if (status === 'ok' && value !== undefined) {
      try { json = stringify(value); } catch (e) { status = 'error'; value = 'result is not JSON-serialisable: ' + describe(e); }
    }
    if (wanted !== null) {
      try {
        const out = create(null);
        for (let i = 0; i < wanted.length; i++) out[wanted[i]] = G[wanted[i]];
        gjson = stringify(out);
      } catch (e) { gjson = undefined; if (status === 'ok') { status = 'error'; value = 'returnGlobals are not JSON-serialisable: ' + describe(e); } }
    }
    if (status !== 'ok') json = stringify(value);
    if ((json === undefined ? 0 : json.length) + (gjson === undefined ? 0 : gjson.length) > maxChars) {
      status = 'too-large'; json = undefined; gjson = undefined;
    }
    seq = 0;
    done(s, status, json, gjson);
  };

  let fn;
  try { fn = ns === null ? undefined : ns[entry]; } catch (e) { fn = undefined; }
  if (typeof fn !== 'function') {
    finish('no-entry', 'the module has no exported function ' + stringify(entry));
    return box;
  }
  let result;
  try {
    if (globalsJson !== undefined) {
      const globals = parse(globalsJson);
      const names = ownKeys(globals);
      for (let i = 0; i < names.length; i++) {
        defineProperty(G, names[i], dataDescriptor(globals[names[i]], true));
      }
    }
    result = apply(fn, undefined, parse(argsJson));
  } catch (e) {
    finish(apply(wsHas, hostErrors, [e]) ? 'host-error' : 'error', describe(e));
    return box;
  }
  apply(then, resolveP(result), [
    (value) => finish('ok', value),
    (e) => finish(apply(wsHas, hostErrors, [e]) ? 'host-error' : 'error', describe(e)),
  ]);
  return box;
});

return { init, run, settle, setNamespace };
})
`;
