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

/**
 * Kills every process whose environment carries `name=value` (a turn's mark, which every process
 * it starts inherits), look after look until one finds none it has not killed yet: a marked
 * process that forked before its SIGKILL shows its child to the next look, and none forks after
 * it. Unlike a process tree or group, a mark follows a process that left them (a session of its
 * own, an orphan of a dead parent). Returns the pids it signalled.
 */
export function killMarked(name: string, value: string, signal: NodeJS.Signals = "SIGKILL"): number[] {
  const entry = `\0${name}=${value}\0`;
  const signalled = new Set<string>();
  const pids: number[] = [];
  // Bounded all the same: each look finds only what the previous one's victims started.
  for (let look = 0; look < 50; look++) {
    let fresh = 0;
    for (const pid of markedProcesses(entry)) {
      const id = `${pid}:${processStartTime(pid)}`;
      if (signalled.has(id)) continue; // killed already, not yet gone
      signalled.add(id);
      fresh++;
      try {
        process.kill(pid, signal);
        pids.push(pid);
      } catch {
        // already gone
      }
    }
    if (fresh === 0) break;
  }
  return pids;
}

/** The live processes (but this one) whose environment holds `entry` (`\0NAME=value\0`). */
function markedProcesses(entry: string): number[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      // Another user's environment cannot be read (nor that process signalled): it fails here.
      const env = fs.readFileSync(`/proc/${name}/environ`, "latin1");
      if (`\0${env}\0`.includes(entry)) out.push(Number(name));
    } catch {
      // gone while we looked, or not ours
    }
  }
  return out;
}
