import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDatabase, openMigrated } from "../../src/engine/database.js";
import { systemClock } from "../../src/engine/clock.js";
import { COORDINATOR_LEASE, leaseHolder } from "../../src/engine/leases.js";
import { until } from "../support/codexEngine.js";
import { tempDir } from "../support/engine.js";
import { installReadableByOthers } from "../support/unprivilegedInstall.js";

const CLI = path.resolve("dist/bin/main.js");
const NOBODY = 65534;

describe("storage faults at start-up (real CLI)", () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  // nobody must be able to load the CLI even from a clone under a root-only directory (/root).
  let forNobody: ReturnType<typeof installReadableByOthers> | undefined;
  const nobodysCli = async () => {
    forNobody = forNobody ?? installReadableByOthers();
    return (await forNobody).cli;
  };
  afterAll(async () => (await forNobody)?.remove());

  it("serve on a read-only database exits 1 at once, naming the file and the fix, without a stack trace", async (ctx) => {
    // Root writes any file whatever its mode: the bot runs as nobody, the database stays root's.
    if (process.getuid?.() !== 0) ctx.skip();
    dir = tempDir();
    fs.chmodSync(dir, 0o755);
    const data = path.join(dir, "data");
    const file = path.join(data, "codexpi.db");
    await (await openMigrated(file)).destroy();
    fs.chmodSync(file, 0o644);
    fs.chownSync(data, NOBODY, NOBODY); // the directory is writable (WAL files), the database is not
    const cli = await nobodysCli();
    const started = Date.now();
    const serve = await execa(process.execPath, [cli, "serve"], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        CODEXPI_DATA_DIR: data,
        CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
        CODEXPI_HEADLESS: "1",
        CODEXPI_LOCALE: "en",
        HEALTH_PORT: "0",
        CODEXPI_METRICS_PORT: "0",
        LOG_LEVEL: "warn",
      },
      extendEnv: false,
      uid: NOBODY,
      gid: NOBODY,
      reject: false,
      timeout: 30_000,
    });
    expect(serve.timedOut).toBe(false);
    expect(serve.exitCode).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(serve.stderr).toContain(`the database ${file} is read-only for this process (uid ${NOBODY})`);
    expect(serve.stderr).toContain(`Fix: make ${file} and its directory ${data} writable`);
    expect(serve.stderr).not.toMatch(/^\s+at /m);
  });

  it("serve whose data directory cannot be created exits 1 naming the path", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip();
    dir = tempDir();
    fs.chmodSync(dir, 0o755); // root's: nobody cannot create the data directory in it
    const data = path.join(dir, "data");
    const serve = await execa(process.execPath, [await nobodysCli(), "serve"], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        CODEXPI_DATA_DIR: data,
        CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
        CODEXPI_HEADLESS: "1",
        HEALTH_PORT: "0",
        CODEXPI_METRICS_PORT: "0",
        LOG_LEVEL: "warn",
        CODEXPI_LOCALE: "fr",
      },
      extendEnv: false,
      uid: NOBODY,
      gid: NOBODY,
      reject: false,
      timeout: 30_000,
    });
    expect(serve.exitCode).toBe(1);
    expect(serve.stderr).toContain(path.join(data, "codexpi.db"));
    // In the operator's language (CODEXPI_LOCALE).
    expect(serve.stderr).toContain("Correctif :");
    expect(serve.stderr).not.toMatch(/^\s+at /m);
  });

  it("serve stops on SIGTERM within seconds with exit 0, and gives the coordinator lease up", async () => {
    dir = tempDir();
    const data = path.join(dir, "data");
    const serve = execa(process.execPath, [CLI, "serve"], {
      env: {
        CODEXPI_DATA_DIR: data,
        CODEXPI_HEADLESS: "1",
        HEALTH_PORT: "0",
        CODEXPI_METRICS_PORT: "0",
        LOG_LEVEL: "info",
      },
      reject: false,
      timeout: 60_000,
    });
    let log = "";
    serve.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
    });
    const db = await until(
      async () =>
        fs.existsSync(path.join(data, "codexpi.db")) ? openDatabase(path.join(data, "codexpi.db")) : null,
      20_000,
      "the database",
    );
    try {
      await until(
        () => leaseHolder(db, systemClock, COORDINATOR_LEASE).catch(() => null), // not migrated yet
        20_000,
        "the lease",
      );
      await until(async () => log.includes("codexpi serving"), 20_000, "serve to be up"); // signals handled
      const asked = Date.now();
      serve.kill("SIGTERM");
      const ended = await serve;
      expect(ended.exitCode).toBe(0);
      expect(Date.now() - asked).toBeLessThan(10_000);
      expect(await leaseHolder(db, systemClock, COORDINATOR_LEASE)).toBeNull();
    } finally {
      serve.kill("SIGKILL");
      await db.destroy();
    }
  });
});
