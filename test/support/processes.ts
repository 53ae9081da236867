import fs from "node:fs";

// What the stop tests read of the machine's processes: whether a turn left any behind.

/** Every live process whose `/proc/<pid>/<file>` satisfies `match` (one it cannot read does not). */
function processesWhere(file: "cmdline" | "environ", match: (content: string) => boolean): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return match(fs.readFileSync(`/proc/${p}/${file}`, "utf8"));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Every live process whose command line contains `marker`. */
export const processesWith = (marker: string): number[] =>
  processesWhere("cmdline", (cmdline) => cmdline.includes(marker));

/** Every live process whose environment holds exactly `entry` (`NAME=value`). */
export const processesWithEnv = (entry: string): number[] =>
  processesWhere("environ", (environ) => environ.split("\0").includes(entry));

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
