// TypeScript handlers are transpiled (types stripped, no bundling) before they become a
// SandboxJob's `source`; the sandbox itself only ever sees JavaScript.
import { transformSync } from 'esbuild';
import { SandboxFailure } from './errors';

export function transpileTs(source: string): string {
  try {
    return transformSync(source, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: 'module.ts' }).code;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SandboxFailure('sandbox/compile-error', `the TypeScript does not compile: ${message}`);
  }
}
