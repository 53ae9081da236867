import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/engine/database.js";
import { ForgePolling } from "../../../src/forge/store/polling.js";
import { cliHarness } from "./harness.js";

// Issue 33, item 1, from the real binary: polling is off unless turned on per project.

describe("codexpi forge set --poll (real binary)", () => {
  const t = cliHarness();

  it("S-FORGE-48: --poll on turns polling on from now (shown, kept), --poll off turns it off, another value is refused and changes nothing; the settings shown say it", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const before = await t.cli("forge", "set", "demo");
    expect(before.exitCode, before.stderr).toBe(0);
    expect(before.stdout).toContain("relève désactivée");
    const since = Date.now();
    const on = await t.cli("forge", "set", "demo", "--poll", "on");
    expect(on.exitCode, on.stderr).toBe(0);
    expect(on.stdout).toContain("relève activée");
    const db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
    try {
      const project = await db
        .selectFrom("projects")
        .select("id")
        .where("name", "=", "demo")
        .executeTakeFirstOrThrow();
      const polled = await new ForgePolling(db).pollOf(project.id);
      expect(polled.poll).toBe("on");
      expect(polled.from).toBeGreaterThanOrEqual(since - 1_000);
      const bad = await t.cli("forge", "set", "demo", "--poll", "maybe");
      expect(bad.exitCode).not.toBe(0);
      expect((await new ForgePolling(db).pollOf(project.id)).poll).toBe("on");
      const shown = await t.cli("forge", "set", "demo", "--channel", "C0POLL1");
      expect(shown.stdout).toContain("relève activée");
      const off = await t.cli("forge", "set", "demo", "--poll", "off");
      expect(off.stdout).toContain("relève désactivée");
      expect(await new ForgePolling(db).pollOf(project.id)).toEqual({ poll: "off", from: null });
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
