// CPU of one CLI start-up (`codexpi project list` on an empty SQLite database, and `codexpi tick`),
// with V8's code cache of the bundle (src/bin/main.ts) and without it (the cache folder removed
// before each run). Every `codexpi worker`, and every command of the test suite, pays this.
//   npm run build && node dist/scripts/bench-cli-start.js [runs]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { packageRoot } from "../src/engine/system/paths.js";
import { median, percentile } from "./benchStats.js";

const runs = Number(process.argv[2] ?? 20);
const cli = path.join(packageRoot(), "dist", "bin", "main.js");
const cacheDir = path.join(packageRoot(), "dist", "bin", "cli", ".v8-cache");

/** CPU (user + system, ms) of the children this process has reaped so far (Linux). */
function childrenCpuMs(): number {
  const fields = (fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1] ?? "").split(" ");
  const ticks = Number(fields[13]) + Number(fields[14]); // cutime, cstime
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

function measure(args: string[], env: NodeJS.ProcessEnv, cold: boolean): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (cold) fs.rmSync(cacheDir, { recursive: true, force: true });
    const before = childrenCpuMs();
    const run = spawnSync(process.execPath, [cli, ...args], { env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`codexpi ${args.join(" ")} failed: ${run.stderr}`);
    samples.push(childrenCpuMs() - before);
  }
  return samples;
}

function main(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-cli-"));
  const env = {
    PATH: process.env.PATH,
    CODEXPI_DATA_DIR: dir,
    CODEXPI_ENV_FILE: "none",
    LOG_LEVEL: "silent",
  };
  measure(["migrate"], env, false);
  const line = (label: string, samples: number[]) =>
    process.stdout.write(
      `${label.padEnd(36)} median ${median(samples).toFixed(0)} ms CPU, p90 ${percentile(samples, 90).toFixed(0)} ms (${runs} runs)\n`,
    );
  for (const args of [["project", "list"], ["tick"]]) {
    line(`codexpi ${args.join(" ")}, no cache`, measure(args, env, true));
    measure(args, env, false); // writes the cache
    line(`codexpi ${args.join(" ")}, code cache`, measure(args, env, false));
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

main();
