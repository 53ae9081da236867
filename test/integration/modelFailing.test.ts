import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/engine/database.js";
import { systemClock } from "../../src/engine/clock.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { makeCodexHome } from "../support/codexHome.js";
import { tempDir } from "../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");

describe("a model that keeps failing (real CLI, worker and Codex)", () => {
  let dir = "";
  let home = "";
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("ask --wait ends within the idle bound with Codex's last error, although Codex keeps retrying", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const h = await makeCodexHome(`http://127.0.0.1:${port}/v1`);
    home = h.dir;
    dir = tempDir();
    fs.mkdirSync(path.join(dir, "demo"));
    const env = {
      ...h.env,
      CODEXPI_DATA_DIR: path.join(dir, "data"),
      CODEXPI_IDLE_TIMEOUT: "5",
      CODEXPI_LOCALE: "en",
      LOG_LEVEL: "warn",
      NO_PROXY: "127.0.0.1,localhost",
    };
    const cli = (...args: string[]) =>
      execa(process.execPath, [CLI, ...args], { env, reject: false, timeout: 90_000 });
    expect((await cli("project", "add", "demo", path.join(dir, "demo"))).exitCode).toBe(0);
    const db = openDatabase(path.join(dir, "data", "codexpi.db"));
    await updateGlobalPolicy(
      db,
      systemClock,
      {
        max_concurrent: 4,
        load_pause_percent: 1000,
        memory_pause_percent: 100,
        background_start_hour: 0,
        background_end_hour: 0,
      },
      "test",
    );
    await db.destroy();
    const started = Date.now();
    const r = await cli("ask", "demo", "hello", "--wait");
    expect(r.timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("The model kept failing for 5 s");
    expect(r.stderr).toMatch(/Last error: Reconnecting/);
  });
});
