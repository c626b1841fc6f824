// The CLI's side of /api/v1: which registry, which token, and requests that turn an
// `{error: {code, message}}` answer into a RegistryError with that code.
//
// Token: SKILLYARD_TOKEN, else the `token` that `skillyard login` saved in
// $SKILLYARD_HOME/config.json (default ~/.skillyard/config.json). Registry:
// --registry, SKILLYARD_REGISTRY, the config's `registry`, else http://127.0.0.1:3000.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type CliConfig = { registry?: string; token?: string };

/** $SKILLYARD_HOME, default ~/.skillyard: the config, trusted keys, and the lock of `add --global`. */
export function configDir(): string {
  return process.env.SKILLYARD_HOME ?? path.join(os.homedir(), '.skillyard');
}

export function configPath(): string {
  return path.join(configDir(), 'config.json');
}

export function readConfig(): CliConfig {
  const file = configPath();
  if (!existsSync(file)) return {};
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return {
      registry: typeof data.registry === 'string' ? data.registry : undefined,
      token: typeof data.token === 'string' ? data.token : undefined,
    };
  } catch {
    return {};
  }
}

export class RegistryError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export type RegistryClient = {
  base: string;
  token: string | null;
  url(p: string): string;
  request(p: string, init?: RequestInit & { auth?: boolean }): Promise<Response>;
  json<T>(p: string, init?: RequestInit & { auth?: boolean }): Promise<T>;
};

export function registryClient(opts: { registry?: string } = {}): RegistryClient {
  const config = readConfig();
  const base = (opts.registry ?? process.env.SKILLYARD_REGISTRY ?? config.registry ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const token = process.env.SKILLYARD_TOKEN || config.token || null;
  const url = (p: string) => `${base}${p}`;
  async function request(p: string, init: RequestInit & { auth?: boolean } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (token && init.auth !== false) headers.set('authorization', `Bearer ${token}`);
    let res: Response;
    try {
      res = await fetch(url(p), { ...init, headers });
    } catch (e) {
      throw new RegistryError(
        'registry/unreachable',
        `cannot reach the registry at ${base}: ${(e as Error).cause ? String((e as { cause: unknown }).cause) : (e as Error).message}`,
        0,
      );
    }
    if (!res.ok) {
      let code = `http/${res.status}`;
      let message = `${res.status} ${res.statusText}`;
      try {
        const body = (await res.json()) as { error?: { code?: string; message?: string } };
        if (body.error?.code) code = body.error.code;
        if (body.error?.message) message = body.error.message;
      } catch {
        /* not JSON */
      }
      throw new RegistryError(code, message, res.status);
    }
    return res;
  }
  return {
    base,
    token,
    url,
    request,
    async json<T>(p: string, init?: RequestInit & { auth?: boolean }) {
      return (await (await request(p, init)).json()) as T;
    },
  };
}

/** `@scope/name[@spec]` where spec is a version, a dist-tag or a range. */
export function parsePackageRef(text: string): { scope: string; name: string; spec: string | null } | null {
  const m = /^@?([a-z0-9][a-z0-9-]{0,63})\/([a-z0-9][a-z0-9-]{0,63})(?:@(.{1,64}))?$/.exec(text.trim());
  return m ? { scope: m[1], name: m[2], spec: m[3]?.trim() || null } : null;
}
