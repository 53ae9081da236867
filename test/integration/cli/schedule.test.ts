import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi schedule and codexpi audit (real binary)", () => {
  const t = cliHarness();

  it("S-SCHED-07 S-AUDIT-03: the CLI adds, lists, pauses, resumes and removes a schedule; audit prints it as JSON lines", async () => {
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    expect((await t.cli("project", "add", "demo", path.join(t.dir, "demo"))).exitCode).toBe(0);
    const added = await t.cli(
      "schedule",
      "add",
      "demo",
      "0 9 * * mon-fri",
      "summarise the night",
      "--tz",
      "Europe/Paris",
    );
    expect(added.exitCode).toBe(0);
    const id = /schedule (\w+) added/.exec(added.stdout)?.[1] as string;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const list = await t.cli("schedule", "list", "demo");
    expect(list.stdout).toContain(`${id}\tdemo\t"0 9 * * mon-fri"\tEurope/Paris\tactive`);
    expect((await t.cli("schedule", "pause", id)).stdout).toContain("paused");
    expect((await t.cli("schedule", "list")).stdout).toContain("paused(person)");
    expect((await t.cli("schedule", "resume", id)).stdout).toContain("active");
    expect((await t.cli("schedule", "remove", id)).stdout).toContain("removed");
    expect((await t.cli("schedule", "list")).stdout.trim()).toBe("no schedule");
    const bad = await t.cli("schedule", "add", "demo", "61 * * * *", "x");
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain("61 * * * *");

    const audit = await t.cli("audit", "--json", "--project", "demo");
    expect(audit.exitCode).toBe(0);
    const rows = audit.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { actor: string; via: string; action: string; outcome: string });
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([
      ["project.add", "ok"],
      ["schedule.add", "ok"],
      ["schedule.pause", "ok"],
      ["schedule.resume", "ok"],
      ["schedule.remove", "ok"],
      ["schedule.add", "refused"],
    ]);
    expect(new Set(rows.map((r) => `${r.actor} ${r.via}`))).toEqual(
      new Set([`cli:${os.userInfo().username} cli`]),
    );
    const text = await t.cli("audit", "--since", "1d");
    expect(text.stdout.trim().split("\n")).toHaveLength(6);
    expect((await t.cli("audit", "--since", "soon")).exitCode).toBe(1);
  });
});
