import fs from "node:fs";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { recordModelProbe } from "../../../src/engine/system/index.js";
import { tempDir } from "../../support/engine.js";
import { until } from "../../support/codexEngine.js";

const CLI = path.resolve("dist/bin/main.js");

/** What a person reads on stderr: pino's JSON lines aside. */
const lines = (stderr: string) => stderr.split("\n").filter((l) => l.trim() && !l.startsWith("{"));

// The first hour of a newcomer (issue 20): `npm start` with nothing configured says what is
// missing and where to read, at once; the .env file of the quick start is read.
describe("codexpi serve for a newcomer (real CLI bundle)", () => {
  let dir = "";
  const servers: ResultPromise[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.kill("SIGKILL");
      await s.catch(() => undefined);
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  /** `codexpi ARGS` in `dir` with only `env` (no inherited variable, no .env unless written there). */
  function cli(args: string[], env: Record<string, string> = {}) {
    return execa(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "warn", ...env },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
  }

  it("S-FH-01: serve with no environment exits 1 in under 2 s with one line naming the Slack variables and the quick start; --headless or CODEXPI_HEADLESS=1 serves", async () => {
    dir = tempDir();
    // The fastest of three: the bound is codexpi's start, not the load other test files put on
    // the machine at that moment.
    const runs: { r: Awaited<ReturnType<typeof cli>>; ms: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const r = await cli(["serve"]);
      runs.push({ r, ms: Date.now() - started });
    }
    const { r, ms } = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    expect(r.exitCode).toBe(1);
    expect(ms).toBeLessThan(2_000);
    const said = lines(r.stderr);
    expect(said).toHaveLength(1);
    for (const part of [
      "SLACK_BOT_TOKEN",
      "SLACK_APP_TOKEN",
      "SLACK_SIGNING_SECRET",
      "README.md#quick-start",
    ])
      expect(said[0]).toContain(part);
    expect(said[0]).toContain("--headless");
    expect(fs.existsSync(path.join(dir, "data"))).toBe(false); // nothing started, nothing created
    // The bot token alone is not enough either: the line names only what is missing.
    const half = await cli(["serve"], { SLACK_BOT_TOKEN: "xoxb-1" });
    expect(half.exitCode).toBe(1);
    expect(lines(half.stderr)[0]).not.toContain("SLACK_BOT_TOKEN");
    expect(lines(half.stderr)[0]).toContain("SLACK_SIGNING_SECRET");
    // Positive control: asked for, the CLI-only set-up serves (flag or variable).
    for (const [args, env] of [
      [["serve", "--headless"], {}],
      [["serve"], { CODEXPI_HEADLESS: "1" }],
    ] as const) {
      const up = await headless(args, env);
      expect(up.port).toBeGreaterThan(0);
      up.proc.kill("SIGTERM");
      expect((await up.proc).exitCode).toBe(0);
    }
  });

  /** A headless serve, up: its health port read from its "codexpi serving" log line. */
  async function headless(args: readonly string[], env: Record<string, string> = {}) {
    const proc = execa(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: dir,
        HEALTH_PORT: "0",
        CODEXPI_METRICS_PORT: "0",
        LOG_LEVEL: "info",
        CODEXPI_TICK: "*/1 * * * * *",
        ...env,
      },
      extendEnv: false,
      reject: false,
    });
    servers.push(proc);
    let log = "";
    proc.stdout?.on("data", (d: Buffer) => {
      log += d.toString();
    });
    proc.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
    });
    const port = await until(
      async () => Number(/"healthPort":(\d+)[^\n]*codexpi serving/.exec(log)?.[1]) || null,
      20_000,
      `serve to be up (${log.slice(-500)})`,
    );
    const metricsPort = Number(/"metricsPort":(\d+)[^\n]*codexpi serving/.exec(log)?.[1]);
    return { proc, port, metricsPort };
  }

  it("S-FH-02: the CLI reads .env where it runs (the environment wins; CODEXPI_ENV_FILE names another file or none); a worker never reads it", async () => {
    dir = tempDir();
    fs.writeFileSync(path.join(dir, ".env"), '# the quick start\nCODEXPI_TICK="every minute"\n');
    // Read: its malformed variable stops serve, named.
    const read = await cli(["serve"]);
    expect(read.exitCode).toBe(1);
    expect(lines(read.stderr)[0]).toContain("CODEXPI_TICK");
    // The environment wins over the file: the tick is fine, Slack is what is missing.
    const wins = await cli(["serve"], { CODEXPI_TICK: "*/5 * * * * *" });
    expect(lines(wins.stderr)[0]).not.toContain("CODEXPI_TICK");
    expect(lines(wins.stderr)[0]).toContain("SLACK_BOT_TOKEN");
    // none: no file at all.
    const none = await cli(["serve"], { CODEXPI_ENV_FILE: "none" });
    expect(lines(none.stderr)[0]).toContain("SLACK_BOT_TOKEN");
    // Another file, named: read; a named file that is missing is an error naming it.
    fs.writeFileSync(path.join(dir, "other.env"), "CODEXPI_HEADLESS=maybe\n");
    const other = await cli(["serve"], { CODEXPI_ENV_FILE: "other.env" });
    expect(lines(other.stderr)[0]).toContain("CODEXPI_HEADLESS");
    const missing = await cli(["project", "list"], { CODEXPI_ENV_FILE: "absent.env" });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(path.join(dir, "absent.env"));
    // A worker's environment is its spawner's: the same missing file is not even looked at.
    const worker = await cli(["worker", "no-such-item", "--attempt", "1"], {
      CODEXPI_ENV_FILE: "absent.env",
    });
    expect(worker.stderr).not.toContain("absent.env");
  });

  it("S-FH-03: /healthz of a fresh install says the model is unchecked; a failed doctor probe fails it (503, model); a passed one clears it", async () => {
    dir = tempDir();
    const data = path.join(dir, "data");
    const up = await headless(["serve", "--headless"], { CODEXPI_DATA_DIR: data });
    // The detail is the loopback metrics listener's (the health port answers liveness only).
    const health = async () => {
      const res = await fetch(`http://127.0.0.1:${up.metricsPort}/healthz`);
      return { status: res.status, body: (await res.json()) as { failing: string[]; model: unknown } };
    };
    const fresh = await until(async () => {
      const h = await health();
      return h.status === 200 ? h : null; // the first tick takes the lease
    }, 20_000);
    expect(fresh.body.model).toEqual({ state: "unchecked", checked_at: null, by: null });
    recordModelProbe(data, { ok: false, at: Date.now() });
    const failed = await health();
    expect(failed.status).toBe(503);
    expect(failed.body.failing).toEqual(["model"]);
    expect(failed.body.model).toMatchObject({ state: "failing", by: "doctor" });
    recordModelProbe(data, { ok: true, at: Date.now() });
    const passed = await health();
    expect(passed.status).toBe(200);
    expect(passed.body.model).toMatchObject({ state: "ok", by: "doctor" });
  });
});
