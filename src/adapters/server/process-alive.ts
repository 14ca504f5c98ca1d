import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` runs: it exists (as ours or another user's) and is not a zombie. A process
 * killed but not yet reaped (its parent gone, and an init that reaps late or never, as in some
 * containers and micro-VMs) answers `kill(pid, 0)` as if it ran, yet holds nothing: no port, no
 * lock worth keeping (issue 45, item 8). Linux tells the two apart in /proc/PID/stat; elsewhere
 * the signal's answer is taken.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, as another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return process.platform !== 'linux';
  }
  // "PID (COMM) STATE …": COMM may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}
