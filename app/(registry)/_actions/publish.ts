'use server';
// Web publishing: preview an upload (every diagnostic with file and line, the manifest,
// the scan, whether the version number is free) and publish it. Each action checks the
// origin and the signed-in user, parses its form, and publishes into the chosen scope
// only when the user may (their own, or a team's where they publish: lib/registry
// checks that with the same assertScopeOwner as the API).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { serverAction, type ActionResult } from '@/lib/actions';
import { AppError } from '@/lib/errors';
import { auditScopeAction } from '@/lib/teams';
import { previewPackage, publishPackage, type UploadInput, type ScanFinding } from '@/lib/registry';
import type { AgentVerdict, Diagnostic } from '@/lib/skills';

export type ToolSummary = {
  name: string;
  description: string;
  params: string[];
  required: string[];
  gates: string[];
  capabilities: string[];
};

export type UploadPreview = {
  scope: string;
  name: string | null;
  version: string | null;
  format: string | null;
  description: string;
  tools: ToolSummary[];
  instructions: boolean;
  signature: { keyId: string; verified: boolean | null } | null;
  /** whether each agent loads the skill (the author is told which do not) */
  agents: AgentVerdict[];
  files: Array<{ path: string; size: number }>;
  diagnostics: Diagnostic[];
  findings: ScanFinding[];
  problems: Array<{ code: string; message: string }>;
};

export type Published = { scope: string; name: string; version: string; tag: string; tagged: boolean; integrity: string; url: string };

const Fields = z.object({
  kind: z.enum(['files', 'archive']),
  paths: z.string().max(2_000_000).optional(),
  folderName: z.string().max(200).optional(),
  version: z.string().max(64).optional(),
  tag: z.string().max(32).optional(),
  changelog: z.string().max(20_000).optional(),
  scope: z.string().max(65).optional(),
  visibility: z.enum(['public', 'unlisted', 'private']).optional(),
});

/** What one preview or publish costs from the user's API budget: as POST /api/v1/skills. */
const PUBLISH_COST = 5;

// reading an upload is as costly here as through the API: one budget for both, charged
// (by the chain) before the form's files are read; the body itself was limited before
// Next read it (lib/api/action-body-limit.ts)
const chain = (name: string) => ({ name, input: z.instanceof(FormData), signedIn: { message: 'Sign in to publish.' }, rateCost: PUBLISH_COST });

async function uploadFrom(form: FormData): Promise<{ upload: UploadInput; fields: z.infer<typeof Fields> }> {
  const text = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const fields = Fields.parse({
    kind: text('kind'),
    paths: text('paths'),
    folderName: text('folderName'),
    version: text('version'),
    tag: text('tag'),
    changelog: text('changelog'),
    scope: text('scope'),
    visibility: text('visibility'),
  });
  const files = form.getAll('file').filter((f): f is File => typeof f !== 'string');
  if (files.length === 0) throw new AppError('publish/empty', 'Choose a folder, an archive or a skill file first.');
  if (fields.kind === 'archive') {
    const f = files[0];
    return { upload: { kind: 'bytes', bytes: new Uint8Array(await f.arrayBuffer()), fileName: f.name }, fields };
  }
  // the browser's relative paths travel beside the files (a multipart filename may lose them)
  const paths = z
    .array(z.string().max(1000))
    .length(files.length)
    .parse(JSON.parse(fields.paths ?? '[]'));
  const contents = await Promise.all(files.map(async (f) => new Uint8Array(await f.arrayBuffer())));
  return { upload: { kind: 'files', files: paths.map((p, i) => ({ path: p, content: contents[i] })), folderName: fields.folderName }, fields };
}

const preview = serverAction(chain('publish preview'), async (form, { db, user }): Promise<UploadPreview> => {
  const { upload, fields } = await uploadFrom(form);
  const p = await previewPackage(db, { upload, userId: user.id, scope: fields.scope, version: fields.version });
  const m = p.manifest;
  return {
    scope: p.scope,
    name: p.name,
    version: p.version,
    format: m?.format ?? null,
    description: m?.description ?? '',
    tools: (m?.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      params: Object.keys(((t.params as { properties?: object } | null)?.properties ?? {}) as object),
      required: ((t.params as { required?: string[] } | null)?.required ?? []).slice(0, 50),
      gates: Object.keys(t.inputTokens),
      capabilities: t.capabilities,
    })),
    instructions: !!m?.instructions,
    signature: m?.signature ? { keyId: m.signature.keyId, verified: m.signature.verified } : null,
    agents: m?.agents ?? [],
    files: p.files.slice(0, 500),
    diagnostics: p.diagnostics,
    findings: p.findings,
    problems: p.problems,
  };
});

export async function previewUploadAction(form: FormData): Promise<ActionResult<UploadPreview>> {
  return preview(form);
}

const publish = serverAction(chain('publish'), async (form, { db, user, principal, address }): Promise<Published> => {
  const { upload, fields } = await uploadFrom(form);
  const { published } = await publishPackage(db, {
    upload,
    userId: user.id,
    scope: fields.scope,
    version: fields.version,
    tag: fields.tag,
    changelog: fields.changelog,
    visibility: fields.visibility,
  });
  // a team's audit log records a publish from the web as it does one from the API
  await auditScopeAction(db, published.scope, { principal, ip: address }, 'skill.publish', `@${published.scope}/${published.name}@${published.version}`, {
    tag: published.tag,
    ...(fields.visibility ? { visibility: fields.visibility } : {}),
  });
  const url = `/skills/${published.scope}/${published.name}`;
  revalidatePath('/');
  revalidatePath(url);
  return {
    scope: published.scope,
    name: published.name,
    version: published.version,
    tag: published.tag,
    tagged: published.tagged,
    integrity: published.integrity,
    url,
  };
});

export async function publishUploadAction(form: FormData): Promise<ActionResult<Published>> {
  return publish(form);
}
