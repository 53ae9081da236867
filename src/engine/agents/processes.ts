import fs from "node:fs";

/**
 * A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). Together with
 * the pid it names one process for good: a pid alone can be reused by an unrelated process.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = rest[0];
    if (state === "Z" || state === "X") return null; // a zombie has finished its work
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process identified by pid and start time still runs. */
export function isSameProcessAlive(pid: number | null, startTime: string | null): boolean {
  if (!pid || !startTime) return false;
  return processStartTime(pid) === startTime;
}

/** Signals a whole process group, ignoring "no such process". */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Signals one process only if it is still the one we recorded. */
export function signalIfSame(pid: number | null, startTime: string | null, signal: NodeJS.Signals): boolean {
  if (!pid || !isSameProcessAlive(pid, startTime)) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
