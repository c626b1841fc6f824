// lib/registry: skills and their versions as stored: publish, read, search, download,
// manage, and what a viewer may see (server-only data access, one operation per file).
// The CLI and the upload worker thread take read-upload.ts, package-tarball.ts and
// scan-package.ts directly (plain Node: this index carries the server-only marker).
import 'server-only';
export { getSkill, readSkillDetail, canSeePrivate, type SkillDetail, type Viewer } from './get-skill';
export { findVisibleSkill } from './find-visible-skill';
export { getVersionTrust, versionTrustById } from './get-version-trust';
export { assertScopeOwner } from './assert-scope-owner';
export { mayManageSkill } from './may-manage-skill';
export { publishScopesOf } from './publish-scopes';
export { listVersions } from './list-versions';
export { listPlaygroundSkills, type PlaygroundSkillOption } from './list-playground-skills';
export { loadSkillVersion, parseSkillRef, type SkillHead, type SkillRef } from './load-skill-version';
export { skillHead, cachedHead, forgetCachedSkillHeads } from './skill-heads';
export { searchSkills, COUNT_CAP } from './search-skills';
export { suggestSkills } from './suggest-skills';
export { SkillParams, VersionParams, parseSearchParams } from './skill-route-params';
export { readFilePrefix } from './read-file-prefix';
export { downloadVersion } from './download-version';
export { previewPackage } from './preview-package';
export { publishPackage } from './publish-package';
export { uploadLimits, type UploadInput } from './read-upload';
export { packageLimitSettings } from './package-limit-settings';
export { type ScanFinding } from './scan-package';
export { type VersionProvenanceInput } from './version-provenance';
export { getVersionStatement } from './version-statement';
export { getVersionPermissions, diffVersionPermissions, type VersionPermissionDiff } from './version-permissions';
export { getVersionFindings, explainFindings, type ExplainedFinding } from './explained-findings';
export { reviewFinding } from './review-finding';
export { manageVersion, ZManageVersion } from './manage-version';
export { yankVersion } from './yank-version';
export { deprecateVersion } from './deprecate-version';
export { deleteVersion } from './delete-version';
export { setDistTag, listDistTags } from './set-dist-tag';
export { starSkill } from './star-skill';
export { starredBy } from './starred-by';
export { noteSkillCalls, skillOfTool, skillUsage, skillUsageOf, type SkillUsage } from './skill-usage';
export { parseRange } from './package-store';
