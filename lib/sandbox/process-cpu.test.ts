import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processCpuMs } from './process-cpu';

describe('processCpuMs', () => {
  it.runIf(process.platform === 'linux')("reads a child's CPU time as it burns CPU, and null for no process", async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end) {}']);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const before = processCpuMs(child.pid!);
      expect(before).not.toBeNull();
      await new Promise((r) => setTimeout(r, 1000));
      expect(processCpuMs(child.pid!)! - before!).toBeGreaterThanOrEqual(100);
    } finally {
      child.kill('SIGKILL');
    }
    expect(processCpuMs(-1)).toBeNull();
    expect(processCpuMs(2 ** 30)).toBeNull();
  });
});
