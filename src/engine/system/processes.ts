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

/** Every live descendant of a process, found through /proc (children first listed last). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop() as number;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Kills a process, its group and all its descendants. Codex starts each command in a session of
 * its own (setsid), so signalling its group alone would leave a full-access agent's commands behind.
 */
export function killTree(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  const tree = descendants(pid);
  killGroup(pid, signal);
  for (const p of [pid, ...tree]) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}
