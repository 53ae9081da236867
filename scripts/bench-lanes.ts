// Lane start-up (issue 18): what a branch-mode conversation's first turn adds before its agent
// starts. For a repository of 1,000 and then 10,000 files, 20 lanes are made through the engine's
// own `ensureLane` (a sealed `git clone --shared` in the jail, the branch checked out, the seal
// written, the row inserted), each timed; then the disk each lane uses (`du` of its directory:
// the checkout and the clone's own `.git`, the project's objects being borrowed, not copied).
// Target: median under 1 s at 10,000 files.
// Then a lane of a 1,000-file repository whose setup makes a 20,000-file dependency tree: the
// first lane runs it, every later one starts from its cached result (target: under 2 s).
//   npm run build && node dist/scripts/bench-lanes.js [lanes]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../src/config.js";
import { systemClock } from "../src/engine/clock.js";
import { openMigrated } from "../src/engine/database.js";
import { newId } from "../src/engine/ids.js";
import { ensureLane } from "../src/engine/lanes/index.js";
import { addProject } from "../src/engine/projects/projects.js";
import { fmt, median, percentile } from "./benchStats.js";
import { silentLogger as silent } from "../src/logger.js";

const LANES = Number(process.argv[2] ?? 20);

/** Git run by the benchmark on its own repository (no agent ever wrote it): isolated from the host's config. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, env: GIT_ENV, stdio: ["ignore", "pipe", "inherit"] });

/** A repository of `files` small source-like files in folders of 100, one commit on `main`. */
function makeRepository(root: string, files: number): void {
  fs.mkdirSync(root, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `file${i}.ts`),
      `export const value${i} = ${i};\n// ${"x".repeat(i % 400)}\n`,
    );
  }
  git(root, "add", "-A");
  // No background gc racing the benchmark: the objects are packed once, in the foreground.
  git(root, "-c", "gc.auto=0", "commit", "-q", "-m", "Base");
  git(root, "repack", "-a", "-d", "-q");
}

/** Kilobytes a directory uses on disk. */
const duKb = (dir: string) => Number(execFileSync("du", ["-sk", dir]).toString().split("\t")[0]);

/** A setup that writes a node_modules-like tree of 20,000 small files in 400 packages (awk: one process). */
const DEPENDENCY_SETUP = `awk 'BEGIN { for (i = 0; i < 20000; i++) { d = "node_modules/pkg" int(i / 50) "/lib"; if (i % 50 == 0) system("mkdir -p " d); f = d "/f" i ".js"; printf "module.exports = %d; // %s\\n", i, substr("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1, i % 80) > f; close(f) } }'`;

async function scenario(files: number, withSetup = false) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-bench-lanes-"));
  try {
    // CODEXPI_JAIL=off measures the same without bubblewrap (what the jail costs).
    const config = parseConfig({
      CODEXPI_DATA_DIR: path.join(dir, "data"),
      LOG_LEVEL: "silent",
      CODEXPI_JAIL: process.env.CODEXPI_JAIL,
    });
    fs.mkdirSync(config.dataDir, { recursive: true });
    const db = await openMigrated(config.database);
    const root = path.join(dir, "repo");
    makeRepository(root, files);
    const added = await addProject(db, systemClock, { name: "bench", path: root, workspaceMode: "branch" });
    const project = withSetup ? { ...added, setup_command: DEPENDENCY_SETUP } : added;
    const startups: number[] = [];
    const disk: number[] = [];
    for (let i = 0; i < LANES; i++) {
      const now = Date.now();
      const conversation = { id: newId(), title: `Change number ${i}` };
      await db
        .insertInto("conversations")
        .values({ ...conversation, project_id: project.id, user_id: "U1", created_at: now, updated_at: now })
        .execute();
      const t0 = performance.now();
      const lane = await ensureLane(
        { db, config, clock: systemClock, logger: silent },
        { conversation, project },
      );
      startups.push(performance.now() - t0);
      disk.push(duKb(lane));
    }
    await db.destroy();
    const kb = (v: number) => `${(v / 1024).toFixed(1)} MiB`;
    if (withSetup) {
      // The first lane ran the setup; every later one started from its cached result.
      console.log(
        `${files} files + a setup making 20,000 dependency files: first lane (setup ran) ${fmt(startups[0] ?? 0)}; cached lane start-up median ${fmt(median(startups.slice(1)))}, p95 ${fmt(percentile(startups.slice(1), 95))}, max ${fmt(Math.max(...startups.slice(1)))} (cache ${process.getuid?.() === 0 ? "hard links" : "copies"}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
      );
      return;
    }
    console.log(
      `${files} files (checkout ${kb(duKb(root) - duKb(path.join(root, ".git")))}): lane start-up median ${fmt(median(startups))}, p95 ${fmt(percentile(startups, 95))}, max ${fmt(Math.max(...startups))}; disk per lane median ${kb(median(disk))}, max ${kb(Math.max(...disk))} (jail ${config.jail}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (!process.env.BENCH_SETUP_ONLY) await scenario(1_000);
if (!process.env.BENCH_SETUP_ONLY) await scenario(10_000);
await scenario(1_000, true);
