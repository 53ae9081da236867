import fs from "node:fs";
import path from "node:path";

/**
 * Removes a test's temp directory even while a process it started is still winding down. A killed
 * `serve` leaves detached workers (and jailed Codex processes) that may write into the directory
 * for a moment: removal is retried, and any process still working inside the directory after a
 * few attempts is killed (its cwd is under it), so teardown never fails on ENOTEMPTY.
 */
export async function removeTree(dir: string | undefined, deadlineMs = 15_000): Promise<void> {
  if (!dir) return;
  const until = Date.now() + deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      if (attempt >= 3) killProcessesIn(dir);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * SIGKILLs every process working in `dir`: its cwd lies under it, or its command line or
 * environment names it (a worker's data directory, bubblewrap's binds of a jailed Codex). Linux
 * /proc only; never this process.
 */
function killProcessesIn(dir: string): void {
  const root = path.resolve(dir) + path.sep;
  let pids: string[] = [];
  try {
    pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      const names = (file: string) => fs.readFileSync(`/proc/${pid}/${file}`, "utf8").includes(root);
      if (`${cwd}${path.sep}`.startsWith(root) || names("cmdline") || names("environ"))
        process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone, or not ours to read
    }
  }
}
