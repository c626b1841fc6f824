// A file the user named on the command line, read with a failure they can act on: a
// coded error (one line from cli/main.ts, exit 1) instead of Node's ENOENT stack.

import { readFileSync } from 'node:fs';
import { AppError } from '../lib/errors';

/** `what` names the file in the message: `signing key (--key)`, `file to sign`. `hint` follows a missing file. */
export function readLocalFile(file: string, what: string, hint = ''): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('file/not-found', `${what} ${file} does not exist${hint ? ` (${hint})` : ''}`);
    const why = code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
    throw new AppError('file/unreadable', `cannot read ${what} ${file}: ${why}`);
  }
}
