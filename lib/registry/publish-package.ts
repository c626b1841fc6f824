// Publish an upload for a signed-in user or an API token: preview (limits, diagnostics,
// version, scan), refuse on any problem, then store the version.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { previewError, previewPackage, type PackagePreview, type PreviewInput } from './preview-package';
import { publishVersion, type PublishedVersion, type PublishInput } from './publish-version';

export type PublishPackageInput = PreviewInput & {
  tag?: string;
  changelog?: string | null;
  visibility?: 'public' | 'unlisted' | 'private';
  provenance?: PublishInput['provenance'];
  /** a trusted publisher's token: the upload must be this skill (lib/trusted-publishing) */
  onlySkill?: { scope: string; name: string };
};

export async function publishPackage(db: Db, input: PublishPackageInput): Promise<{ published: PublishedVersion; preview: PackagePreview }> {
  const preview = await previewPackage(db, input);
  if (preview.problems.length || !preview.manifest || !preview.version) throw previewError(preview);
  const only = input.onlySkill;
  if (only && (preview.scope !== only.scope || preview.name !== only.name)) {
    throw new AppError('publish/not-trusted-for-skill', `This token publishes @${only.scope}/${only.name} only, not @${preview.scope}/${preview.name}. Nothing was published.`);
  }
  const published = await publishVersion(db, {
    scope: preview.scope,
    manifest: preview.manifest,
    files: preview.packageFiles,
    // the preview scanned these very files (in a worker thread): no second scan here
    findings: preview.findings,
    version: preview.version,
    tag: input.tag,
    changelog: input.changelog,
    visibility: input.visibility,
    publishedById: input.userId,
    provenance: input.provenance,
  });
  return { published, preview };
}
