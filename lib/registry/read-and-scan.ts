// The CPU-heavy half of a publish, as one pure function: upload bytes or files -> the
// package (files, manifest, diagnostics) and its scan findings. The web process runs it
// in a worker thread (upload-reader.ts); the CLI may call it directly.
import { readUpload, type ReadUploadOptions, type UploadedPackage, type UploadInput } from './read-upload';
import { scanPackage, type ScanFinding } from './scan-package';

export type ReadAndScanResult = { pkg: UploadedPackage; findings: ScanFinding[] };

export function readAndScanUpload(input: UploadInput, opts: ReadUploadOptions = {}): ReadAndScanResult {
  const pkg = readUpload(input, opts);
  return { pkg, findings: scanPackage(pkg.files) };
}
