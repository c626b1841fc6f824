// The behaviour every package store shares, run against each one (Postgres and S3):
// bytes back as stored, whole or by range, a missing version is null, removal removes.
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { readAll } from '../read-all';
import type { PackageStore } from '../types';

export function packageStoreContract(store: () => PackageStore, newVersion: () => Promise<string>) {
  it('returns the stored bytes whole, with their size', async () => {
    const id = await newVersion();
    const bytes = crypto.randomBytes(3 * 1024 * 1024 + 17); // larger than one stored part
    await store().put(id, bytes);
    expect(await store().size(id)).toBe(bytes.byteLength);
    expect(Buffer.from(await readAll(store().open(id))).equals(bytes)).toBe(true);
  });

  it('returns any inclusive byte range, across part boundaries', async () => {
    const id = await newVersion();
    const bytes = crypto.randomBytes(2 * 1024 * 1024 + 5);
    await store().put(id, bytes);
    for (const [start, end] of [
      [0, 0],
      [10, 99],
      [1024 * 1024 - 3, 1024 * 1024 + 3],
      [bytes.byteLength - 5, bytes.byteLength - 1],
    ]) {
      const got = Buffer.from(await readAll(store().open(id, { start, end })));
      expect(got.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it('knows nothing of a version it never stored, and forgets a removed one', async () => {
    const id = await newVersion();
    expect(await store().size(id)).toBeNull();
    await store().put(id, Buffer.from('gone soon'));
    await store().remove(id);
    expect(await store().size(id)).toBeNull();
    await expect(readAll(store().open(id))).rejects.toMatchObject({ code: 'skill/tarball-not-found' });
  });
}
