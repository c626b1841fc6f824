// Writes a checked package's files into one folder, replacing what was there, and never
// outside it (a path with `..` or an absolute path is refused before anything is written).
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export class UnpackError extends Error {
  readonly code = 'add/unsafe-path';
}

export async function unpackInto(target: string, files: ReadonlyArray<{ path: string; content: Uint8Array }>): Promise<void> {
  const root = path.resolve(target);
  for (const f of files) {
    const dest = path.resolve(root, f.path);
    if (!dest.startsWith(root + path.sep)) throw new UnpackError(`${f.path} would be written outside ${root}`);
  }
  await fsp.rm(root, { recursive: true, force: true });
  for (const f of files) {
    const dest = path.resolve(root, f.path);
    await fsp.mkdir(path.dirname(dest), { recursive: true });
    await fsp.writeFile(dest, f.content, { flag: 'wx' });
  }
}
