import fs from "node:fs";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach } from "vitest";
import { openDatabase, type Database } from "../../../src/engine/database.js";
import { systemClock } from "../../../src/engine/clock.js";
import { updateGlobalPolicy } from "../../../src/engine/projects/policies.js";
import { makeCodexHome } from "../../support/codexHome.js";
import { startFakeModel, type FakeModel } from "../../support/fakeModel.js";
import { killRecorded } from "../../support/codexEngine.js";
import { tempDir } from "../../support/engine.js";
import { removeTree } from "../../support/removeTree.js";

export const CLI = path.resolve("dist/bin/main.js");

/**
 * What every CLI test file shares (the CLI tests are split by command into several files so that
 * they run in parallel): a fake model, a Codex home and a data directory per test, the real
 * `codexpi` binary run against them, and everything a test started killed after it.
 */
export function cliHarness() {
  const t = {
    fake: undefined as unknown as FakeModel,
    dir: "",
    env: {} as Record<string, string>,
    db: undefined as Database | undefined,
    servers: [] as ResultPromise[],
    async setup() {
      t.fake = await startFakeModel();
      const home = await makeCodexHome(t.fake.url);
      t.dir = tempDir();
      fs.mkdirSync(path.join(t.dir, "demo"));
      t.env = {
        ...home.env,
        // The language the tests built on this helper assert (written when French was the default):
        // set explicitly since the default became English (S-LANG-01); a test may override it.
        CODEXPI_LOCALE: "fr",
        CODEXPI_DATA_DIR: path.join(t.dir, "data"),
        LOG_LEVEL: "warn",
        NO_PROXY: "127.0.0.1,localhost",
      };
    },
    /** The test machine is busy (two cores, parallel tests): never pause on load here. */
    async relaxPolicy() {
      const h = openDatabase(path.join(t.dir, "data", "codexpi.db"));
      await updateGlobalPolicy(
        h,
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
      await h.destroy();
    },
    cli: (...args: string[]) =>
      execa(process.execPath, [CLI, ...args], { env: t.env, reject: false, timeout: 60_000 }),
  };
  afterEach(async () => {
    for (const s of t.servers.splice(0)) s.kill("SIGKILL");
    if (t.db) {
      await killRecorded(t.db);
      await t.db.destroy();
      t.db = undefined;
    }
    await t.fake?.close();
    await removeTree(t.dir);
  });
  return t;
}
