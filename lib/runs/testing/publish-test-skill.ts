// Publishes a one-tool code skill for the run tests: its tool returns `reply(args)`,
// written out per version, so a test can tell versions apart by their results.
import type { Db } from '../../db/client';
import { publishVersion } from '../../registry/publish-version';
import { readUpload } from '../../registry/read-upload';

const enc = new TextEncoder();

/** A user with a scope of the same name (idempotent). */
export async function testUser(db: Db, handle: string): Promise<string> {
  const u = await db.user.upsert({ where: { handle }, create: { handle, name: handle }, update: {} });
  await db.scope.upsert({ where: { name: handle }, create: { name: handle, kind: 'user', userId: u.id }, update: {} });
  return u.id;
}

/** `body` is the handler's body, e.g. `return { v: 1, text: args.text };` */
export async function publishTestSkill(db: Db, scope: string, name: string, version: string, body: string, userId?: string) {
  const source = `export const frontmatter = { name: '${name}', description: 'Run test fixture ${name}.' };\nexport default async function (ctx, args) { ${body} }\n`;
  const pkg = readUpload({ kind: 'files', files: [{ path: `${name}.skill.js`, content: enc.encode(source) }] });
  if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
  return publishVersion(db, { scope, manifest: pkg.manifest, files: pkg.files, version, publishedById: userId });
}
