// The grammars a skill's files are highlighted with (by file extension); any other file
// shows as plain text.
import 'server-only';

const LANG_BY_EXT: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  md: 'markdown',
};

export function languageOf(path: string): string | null {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  return LANG_BY_EXT[ext] ?? null;
}
