/** CPU time of a process on Linux, for the benches that pin a server to a core and measure it. */
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) of process `pid`, from /proc (utime and stime, fields 14 and 15, 100 ticks a second); NaN without /proc. */
export function procCpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
