import { readFileSync } from 'node:fs';

/**
 * A process's start time in clock ticks since boot (Linux `/proc/<pid>/stat`,
 * field 22), so a pid the system has since reused is told apart from the
 * process that once had it; '' where it cannot be read (other systems, a gone
 * process).
 */
export function processStartTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces and parentheses) start after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}
