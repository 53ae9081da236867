import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/engine/database.js";
import { systemClock } from "../../src/engine/clock.js";
import { updateGlobalPolicy } from "../../src/engine/projects/policies.js";
import { jailAvailable } from "../support/jail.js";
import { makeCodexHome } from "../support/codexHome.js";
import { startFakeModel, type FakeModel } from "../support/fakeModel.js";
import { tempDir } from "../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");

describe("a relative CODEX_HOME (real CLI, worker and Codex)", () => {
  let fake: FakeModel | undefined;
  let dir = "";
  let home = "";
  afterEach(async () => {
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it.each([["bwrap"], ["off"]])(
    "is resolved from the directory codexpi starts in (jail %s): the agent answers (no 'interrupted')",
    async (jail) => {
      if (jail === "bwrap" && !(await jailAvailable())) return;
      fake = await startFakeModel();
      const h = await makeCodexHome(fake.url);
      home = h.dir;
      dir = tempDir();
      fs.mkdirSync(path.join(dir, "demo"));
      const env = {
        ...h.env,
        // Relative to the working directory below: the worker and Codex start elsewhere.
        CODEX_HOME: path.basename(h.dir),
        CODEXPI_DATA_DIR: path.join(dir, "data"),
        CODEXPI_JAIL: jail,
        LOG_LEVEL: "warn",
        NO_PROXY: "127.0.0.1,localhost",
      };
      const cli = (...args: string[]) =>
        execa(process.execPath, [CLI, ...args], {
          env,
          cwd: path.dirname(h.dir),
          reject: false,
          timeout: 60_000,
        });
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
      fake.enqueue({ kind: "text", text: "relative home 4417" });
      const r = await cli("ask", "demo", "hello", "--wait");
      expect(r.stdout.trim()).toBe("relative home 4417");
      expect(r.exitCode).toBe(0);
    },
  );
});
