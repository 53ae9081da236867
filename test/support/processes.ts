import fs from "node:fs";

// What the stop tests read of the machine's processes: whether a turn left any behind.

/** Every live process whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Every live process whose environment holds exactly `entry` (`NAME=value`). */
export function processesWithEnv(entry: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/environ`, "utf8").split("\0").includes(entry);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Polls a synchronous `check` every `everyMs` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(
  check: () => boolean,
  timeoutMs = 20_000,
  what = "condition",
  everyMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
