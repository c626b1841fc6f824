'use client';
// Pick or drop a folder, an archive or one skill file; the server reads it and answers
// with the manifest and every diagnostic (file and line) before anything is stored; the
// author confirms. Errors block the publish, warnings are shown.
import Link from 'next/link';
import { useRef, useState, useTransition } from 'react';
import { previewUploadAction, publishUploadAction, type Published, type UploadPreview } from '../_actions/publish';
import { InstallCommand } from '../../_components/install-command';
import { formatBytes } from './format-bytes';

export type UploadLimits = { maxPackageBytes: number; maxPackageFiles: number };

/** The package limits, checked before anything is sent (the server checks them again). */
function overLimit(picked: Picked, limits: UploadLimits): string | null {
  const files = picked.kind === 'archive' ? [picked.file] : picked.files;
  const bytes = files.reduce((n, f) => n + f.size, 0);
  if (bytes > limits.maxPackageBytes) {
    return `${picked.label} is ${formatBytes(bytes)}, over the ${formatBytes(limits.maxPackageBytes)} package limit (maxPackageBytes). Nothing was uploaded.`;
  }
  if (files.length > limits.maxPackageFiles) {
    return `${picked.label} holds ${files.length} files, over the ${limits.maxPackageFiles}-file package limit (maxPackageFiles). Nothing was uploaded.`;
  }
  return null;
}

type Picked = { kind: 'files'; files: File[]; paths: string[]; folderName: string; label: string } | { kind: 'archive'; file: File; label: string };

const ARCHIVE = /\.(zip|tgz|tar\.gz|tar)$|\.skill\.(md|js|ts|mjs)$/i;

/** Every file under a dropped folder entry (the File and System Access entry API). */
async function readEntry(entry: FileSystemEntry, prefix: string, out: Array<{ file: File; path: string }>): Promise<void> {
  if (out.length > 5000) return;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, path: `${prefix}${entry.name}` });
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await readEntry(child, `${prefix}${entry.name}/`, out);
    }
  }
}

function formData(picked: Picked, extra: Record<string, string>): FormData {
  const fd = new FormData();
  fd.set('kind', picked.kind);
  if (picked.kind === 'archive') fd.append('file', picked.file, picked.file.name);
  else {
    picked.files.forEach((f) => fd.append('file', f, f.name));
    fd.set('paths', JSON.stringify(picked.paths));
    fd.set('folderName', picked.folderName);
  }
  for (const [k, v] of Object.entries(extra)) if (v) fd.set(k, v);
  return fd;
}

type ScopeChoice = { scope: string; label: string };
type Visibility = '' | 'public' | 'unlisted' | 'private';

export function PublishForm({ scopes, limits, cli }: { scopes: ScopeChoice[]; limits: UploadLimits; cli?: { origin: string; args: string[] } }) {
  // the same line as the skill page's (addCommand in lib/mcp, computed from the server's settings)
  const addLine = (s: string, n: string) => (cli ? ['npx', ...cli.args, 'add', `@${s}/${n}`, '--registry', cli.origin].join(' ') : undefined);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [preview, setPreview] = useState<UploadPreview | null>(null);
  const [published, setPublished] = useState<Published | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState('');
  // the version the shown preview was read with: after an edit, the preview's version
  // problems no longer apply (the server checks the new number again on publish)
  const [checkedVersion, setCheckedVersion] = useState('');
  const [scope, setScope] = useState(scopes[0]?.scope ?? '');
  const [visibility, setVisibility] = useState<Visibility>('');
  const [tag, setTag] = useState('');
  const [changelog, setChangelog] = useState('');
  const [dragging, setDragging] = useState(false);
  const [checking, startCheck] = useTransition();
  const [publishing, startPublish] = useTransition();
  const pending = checking || publishing;
  const folderInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const publishButton = useRef<HTMLButtonElement>(null);

  // A body over the server's limit never reaches the action: Next answers 413 and the
  // call throws. Say what the limit is instead of a generic failure.
  const unsent = `The upload could not be sent. A package may be at most ${formatBytes(limits.maxPackageBytes)} and ${limits.maxPackageFiles} files (maxPackageBytes, maxPackageFiles).`;

  function check(next: Picked, v = version, s = scope) {
    setPicked(next);
    setPublished(null);
    setError(null);
    const tooBig = overLimit(next, limits);
    if (tooBig) {
      setPreview(null);
      setError(`${tooBig} [publish/too-large]`);
      return;
    }
    startCheck(async () => {
      const res = await previewUploadAction(formData(next, { version: v, scope: s })).catch(() => null);
      setCheckedVersion(v);
      if (res?.ok) setPreview(res);
      else {
        setPreview(null);
        setError(res ? `${res.error} [${res.code ?? 'internal'}]` : unsent);
      }
    });
  }

  function pickFolder(list: FileList | null) {
    if (!list || list.length === 0) return;
    const files = Array.from(list);
    const paths = files.map((f) => f.webkitRelativePath || f.name);
    const folderName = paths[0].split('/')[0];
    check({ kind: 'files', files, paths, folderName, label: `${folderName}/ (${files.length} files)` });
  }

  function pickFile(list: FileList | null) {
    const f = list?.[0];
    if (f) check({ kind: 'archive', file: f, label: f.name });
  }

  async function onDrop(e: React.DragEvent) {
    e.preventDefault();
    setDragging(false);
    const items = Array.from(e.dataTransfer.items)
      .map((i) => i.webkitGetAsEntry?.())
      .filter((x): x is FileSystemEntry => !!x);
    if (items.length === 1 && items[0].isFile && ARCHIVE.test(items[0].name)) {
      pickFile(e.dataTransfer.files);
      return;
    }
    const out: Array<{ file: File; path: string }> = [];
    for (const entry of items) await readEntry(entry, '', out);
    if (out.length === 0) return;
    const folderName = items.length === 1 && items[0].isDirectory ? items[0].name : 'upload';
    check({ kind: 'files', files: out.map((o) => o.file), paths: out.map((o) => o.path), folderName, label: `${folderName}/ (${out.length} files)` });
  }

  function publish() {
    if (!picked) return;
    setError(null);
    startPublish(async () => {
      const res = await publishUploadAction(formData(picked, { version, tag, changelog, scope, visibility })).catch(() => null);
      if (res?.ok) setPublished(res);
      else setError(res ? `${res.error} [${res.code ?? 'internal'}]` : unsent);
    });
  }

  const errors = preview?.diagnostics.filter((d) => d.severity === 'error') ?? [];
  const warnings = preview?.diagnostics.filter((d) => d.severity === 'warning') ?? [];
  // problems with the version number wait for the server when the number was edited since
  const versionEdited = version.trim() !== checkedVersion.trim();
  const problems = preview?.problems.filter((p) => !(versionEdited && /^publish\/(version|invalid-version)/.test(p.code))) ?? [];
  const blocked = !preview || problems.length > 0;
  const clean = !!preview && preview.diagnostics.length === 0 && preview.findings.length === 0 && preview.problems.length === 0;
  const shownVersion = version.trim() || preview?.version;

  return (
    <div className="space-y-6">
      <div className="grid gap-3 sm:grid-cols-2" data-testid="publish-where">
        <label className="text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">Scope</span>
          <select
            value={scope}
            data-testid="publish-scope"
            onChange={(e) => {
              setScope(e.target.value);
              if (picked) check(picked, version, e.target.value);
            }}
            className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {scopes.map((s) => (
              <option key={s.scope} value={s.scope}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="text-zinc-600 dark:text-zinc-400">Visibility</span>
          <select
            value={visibility}
            data-testid="publish-visibility"
            onChange={(e) => setVisibility(e.target.value as Visibility)}
            className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="">Keep as is (a new skill is public)</option>
            <option value="public">Public: listed and searchable</option>
            <option value="unlisted">Unlisted: anyone with the link</option>
            <option value="private">Private: members of the scope only</option>
          </select>
        </label>
      </div>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`rounded-xl border-2 border-dashed p-6 text-center ${dragging ? 'border-emerald-500 bg-emerald-50 dark:bg-emerald-950/30' : 'border-zinc-300 dark:border-zinc-700'}`}
        data-testid="drop-zone"
      >
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Drop a skill folder or file here, or</p>
        <div className="mt-3 flex flex-wrap justify-center gap-2">
          <button
            type="button"
            onClick={() => folderInput.current?.click()}
            className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
          >
            Pick a folder
          </button>
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
          >
            Pick a .zip, .tar.gz or skill file
          </button>
        </div>
        <input
          ref={folderInput}
          type="file"
          className="sr-only"
          aria-label="Skill folder"
          data-testid="folder-input"
          // @ts-expect-error webkitdirectory is not in React's input attributes
          webkitdirectory=""
          multiple
          onChange={(e) => {
            pickFolder(e.target.files);
            e.target.value = '';
          }}
        />
        <input
          ref={fileInput}
          type="file"
          className="sr-only"
          aria-label="Skill archive or file"
          data-testid="file-input"
          accept=".zip,.tgz,.gz,.tar,.md,.js,.ts,.mjs"
          onChange={(e) => {
            pickFile(e.target.files);
            e.target.value = '';
          }}
        />
        {picked && <p className="mt-3 font-mono text-xs text-zinc-500">{picked.label}</p>}
      </div>

      {/* always in place: a line appearing above the preview moved the Publish button between
          the press and the release of a click (the blur of the version field starts a check) */}
      <p className="min-h-5 text-sm text-zinc-600 dark:text-zinc-400" role="status">
        {pending ? (publishing ? 'Publishing…' : 'Reading…') : ''}
      </p>
      {error && (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
          data-testid="publish-error"
        >
          {error}
        </p>
      )}

      {preview && !published && (
        <section className="space-y-4" aria-label="Preview" data-testid="preview">
          <div className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
            <h2 className="text-lg font-semibold">
              <span className="text-zinc-500">@{preview.scope}/</span>
              {preview.name ?? '(no skill found)'}
              {preview.version && <span className="ml-2 text-sm font-normal text-zinc-500">{preview.version}</span>}
              {preview.format && <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-normal dark:bg-zinc-800">{preview.format}</span>}
            </h2>
            {preview.description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{preview.description}</p>}
            <p className="mt-2 text-xs text-zinc-500">
              {preview.files.length} files{preview.instructions ? ' · instructions' : ''}
              {preview.signature
                ? ` · signed by ${preview.signature.keyId} (${preview.signature.verified === true ? 'verified' : preview.signature.verified === false ? 'does not verify' : 'key not trusted here'})`
                : ''}
            </p>
            {preview.tools.length > 0 && (
              <ul className="mt-3 space-y-2 text-sm" data-testid="preview-tools">
                {preview.tools.map((t) => (
                  <li key={t.name}>
                    <code className="font-semibold">{t.name}</code>
                    {t.params.length > 0 && <span className="text-zinc-500"> ({t.params.map((p) => (t.required.includes(p) ? p : `${p}?`)).join(', ')})</span>}
                    {t.gates.length > 0 && <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900">needs {t.gates.join(', ')}</span>}
                    {t.capabilities.length > 0 && <span className="ml-1 text-xs text-zinc-500">uses {t.capabilities.join(', ')}</span>}
                    <div className="text-xs text-zinc-500">{t.description}</div>
                  </li>
                ))}
              </ul>
            )}
          </div>

          {preview.agents.some((a) => !a.loads) && (
            <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="preview-agents">
              Will not load in{' '}
              {preview.agents
                .filter((a) => !a.loads)
                .map((a) => `${a.label} (${a.reasons.find((r) => r.effect === 'blocks')?.message ?? 'see its rules'})`)
                .join(', ')}
              .
            </p>
          )}

          {preview.diagnostics.length > 0 && (
            <div>
              <h3 className="mb-2 text-sm font-semibold">
                {errors.length} error{errors.length === 1 ? '' : 's'}, {warnings.length} warning{warnings.length === 1 ? '' : 's'}
              </h3>
              <ul className="space-y-1 font-mono text-xs" data-testid="diagnostics">
                {preview.diagnostics.map((d, i) => (
                  <li key={i} className={d.severity === 'error' ? 'text-red-700 dark:text-red-400' : 'text-amber-700 dark:text-amber-400'} data-severity={d.severity}>
                    {d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : '(package)'} {d.severity}: {d.message} <span className="text-zinc-500">[{d.code}]</span>
                  </li>
                ))}
              </ul>
            </div>
          )}

          {preview.findings.length > 0 && (
            <div>
              <h3 className="mb-2 text-sm font-semibold">Scan findings</h3>
              <ul className="space-y-1 text-xs">
                {preview.findings.map((f, i) => (
                  <li key={i}>
                    <code>
                      {f.file}:{f.line}
                    </code>{' '}
                    {f.message} <span className="text-zinc-500">[{f.rule}]</span>
                  </li>
                ))}
              </ul>
            </div>
          )}

          {clean && (
            <p
              role="status"
              className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200"
              data-testid="no-problems"
            >
              No problems found: no errors, no warnings, nothing in the scan.
            </p>
          )}

          {problems.length > 0 && (
            <ul
              className="space-y-1 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
              data-testid="problems"
            >
              {problems.map((p, i) => (
                <li key={i}>{p.message}</li>
              ))}
            </ul>
          )}

          <div className="grid gap-3 sm:grid-cols-2">
            <label className="text-sm">
              <span className="text-zinc-600 dark:text-zinc-400">Version {preview.version ? '' : '(the skill has none)'}</span>
              <input
                value={version}
                onChange={(e) => setVersion(e.target.value)}
                // leaving the field for the Publish button publishes (the server checks the number
                // again); a check started by that blur would move the button under the pointer
                onBlur={(e) => e.relatedTarget !== publishButton.current && picked && version.trim() !== checkedVersion.trim() && check(picked, version)}
                placeholder={preview.version ?? '1.0.0'}
                className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
              />
            </label>
            <label className="text-sm">
              <span className="text-zinc-600 dark:text-zinc-400">Dist-tag</span>
              <input
                value={tag}
                onChange={(e) => setTag(e.target.value)}
                placeholder="latest"
                className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
              />
            </label>
            <label className="text-sm sm:col-span-2">
              <span className="text-zinc-600 dark:text-zinc-400">Changelog (default: this version&apos;s section of CHANGELOG.md)</span>
              <textarea
                value={changelog}
                onChange={(e) => setChangelog(e.target.value)}
                rows={3}
                className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
              />
            </label>
          </div>

          <button
            ref={publishButton}
            type="button"
            onClick={publish}
            disabled={blocked || publishing}
            className="rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Publish {preview.name ? `@${scope}/${preview.name}${shownVersion ? `@${shownVersion}` : ''}` : ''}
          </button>
        </section>
      )}

      {published && (
        <section className="space-y-3 rounded-xl border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-900 dark:bg-emerald-950/30" data-testid="published">
          <p className="font-medium">
            Published{' '}
            <Link href={published.url} className="underline">
              @{published.scope}/{published.name}@{published.version}
            </Link>
            {published.tagged ? ` (${published.tag})` : ''}
          </p>
          <InstallCommand scope={published.scope} name={published.name} command={addLine(published.scope, published.name)} />
          <p className="break-all font-mono text-xs text-zinc-500">{published.integrity}</p>
        </section>
      )}
    </div>
  );
}
