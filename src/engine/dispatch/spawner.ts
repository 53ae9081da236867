import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import type { Config } from "../../config.js";
import type { WorkerSpawner } from "./dispatcher.js";
import { workerEnvironment } from "../isolation/index.js";
import { cliEntry, logsDir } from "../system/index.js";

/**
 * The environment a worker needs to find the same database and settings as its parent, built
 * from an allow-list: no Slack token or signing secret ever reaches a worker (an unsandboxed
 * agent could read it from /proc/<worker>/environ).
 */
export function workerEnv(config: Config, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return workerEnvironment(base, config.agentEnv, {
    CODEXPI_DATA_DIR: config.dataDir,
    // A worker may hold the database credential (never Codex or a command it starts).
    DATABASE_URL:
      config.database.dialect === "postgres" ? config.database.url : `sqlite:${config.database.file}`,
    CODEXPI_TURN_TIMEOUT: String(Math.ceil(config.turnTimeoutMs / 1000)),
    CODEXPI_IDLE_TIMEOUT: String(Math.ceil(config.idleTimeoutMs / 1000)),
    CODEXPI_CONNECT_TIMEOUT: String(Math.ceil(config.connectTimeoutMs / 1000)),
    CODEXPI_LOCALE: config.locale,
    CODEXPI_JAIL: config.jail,
    CODEXPI_NETNS: config.netns,
    CODEXPI_NETNS_PORTS: config.netnsPorts.join(","),
    CODEXPI_RUNNER: config.runner,
    CODEXPI_APPROVAL_TTL: String(Math.ceil(config.approvalTtlMs / 1000)),
    // The worker gives its turn the project's notes within this budget (engine/memory).
    CODEXPI_MEMORY_CHARS: String(config.memoryChars),
    CODEXPI_AGENT_ENV: config.agentEnv.join(","),
    LOG_LEVEL: config.logLevel,
    CODEX_BIN: config.codexBin,
    CODEX_HOME: config.codexHome,
    CODEXPI_HOST_NAME: config.hostName ?? undefined,
  });
}

/**
 * Spawns `node dist/bin/main.js worker <id> --attempt <n>` detached: its own process group, stdio
 * to a file (a dead parent must not EPIPE it), unref'd so the bot can restart while it works.
 */
export function processSpawner(config: Config, env: NodeJS.ProcessEnv = process.env): WorkerSpawner {
  const entry = cliEntry();
  return async (queueId, attempt) => {
    fs.mkdirSync(logsDir(config), { recursive: true });
    // The worker logs to worker-<id>.log itself; this file catches what it prints if it crashes.
    const out = fs.openSync(path.join(logsDir(config), `worker-${queueId}.out`), "a");
    try {
      const child = spawn(process.execPath, [entry, "worker", queueId, "--attempt", String(attempt)], {
        detached: true,
        stdio: ["ignore", out, out],
        env: workerEnv(config, env),
      });
      const pid = await new Promise<number>((resolve, reject) => {
        child.once("spawn", () => (child.pid ? resolve(child.pid) : reject(new Error("no pid"))));
        child.once("error", reject);
      });
      child.unref();
      return { pid };
    } finally {
      fs.closeSync(out);
    }
  };
}
