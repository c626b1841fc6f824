// `run`, `agent` and `mcp` with local skills run tools in isolated-vm (and compile them
// with esbuild): two native packages the standalone CLI package does not carry. This says,
// in one line, why they cannot load here and what to do, instead of a module stack.
import { CLI_VERSION } from './version';

async function loads(name: string): Promise<string | null> {
  try {
    await import(/* @vite-ignore */ name);
    return null;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'MODULE_NOT_FOUND') return 'not installed';
    return (err.message ?? String(e)).split('\n')[0].slice(0, 160);
  }
}

/** null when isolated-vm and esbuild load; otherwise the reason and the fix, one line. */
export async function isolatedVmProblem(): Promise<string | null> {
  const ivm = await loads('isolated-vm');
  const esb = ivm ? null : await loads('esbuild');
  if (!ivm && !esb) return null;
  const major = Number(process.versions.node.split('.')[0]);
  const what = ivm ? `isolated-vm (${ivm})` : `esbuild (${esb})`;
  const node = major < 22 ? ` isolated-vm has no build for Node ${major}: use Node 24 or 26, then` : '';
  return (
    `running tools on this machine needs ${what}.${node} run the CLI with it: ` +
    `npx -y -p <registry>/cli/skillyard-${CLI_VERSION}.tgz -p isolated-vm@7 -p esbuild skillyard … ` +
    `(or \`mcp --skill @scope/name\`, which runs a registry skill on the registry)`
  );
}
