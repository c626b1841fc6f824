// CPU time another process has used, from Linux's /proc/<pid>/stat (utime + stime, in clock
// ticks of 10 ms). The pool reads a worker's while that worker seems held in one long segment:
// wall time alone cannot tell a loop from a short job on a machine short of CPU.
import fs from 'node:fs';

/** clock ticks per second (USER_HZ): 100 on every Linux Node supports */
const TICK_MS = 10;

/** CPU milliseconds the process has used, or null where /proc is not there (not Linux, or it exited). */
export function processCpuMs(pid: number): number | null {
  if (pid <= 0) return null;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat; here 11 and 12 (state is the first)
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * TICK_MS : null;
}
