import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi memory (real binary)", () => {
  const t = cliHarness();

  it("S-MEM-04: the CLI adds, lists and forgets a project's notes, says what the budget leaves out, and each change is audited", async () => {
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    t.env.CODEXPI_MEMORY_CHARS = "60";
    expect((await t.cli("project", "add", "demo", path.join(t.dir, "demo"))).exitCode).toBe(0);
    const added = await t.cli("memory", "add", "demo", "staging", "is", "deployed", "with", "make", "ship");
    expect(added.exitCode).toBe(0);
    const id = /kept note (\w+)/.exec(added.stdout)?.[1] as string;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const long = await t.cli("memory", "add", "demo", "x".repeat(80));
    const longId = /kept note (\w+)/.exec(long.stdout)?.[1] as string;
    const list = await t.cli("memory", "list", "demo");
    expect(list.stdout).toMatch(
      new RegExp(`${id}\\t[^\\t]+\\tcli\\tgiven\\tproject\\tstaging is deployed with make ship`),
    );
    expect(list.stdout).toContain(`${longId}\t`);
    expect(list.stdout).toMatch(new RegExp(`${longId}\\t[^\\t]+\\tcli\\tleft-out\\t`));
    expect(list.stdout).toContain(`1 note left out of every turn (budget 60 characters): ${longId}`);
    expect((await t.cli("memory", "forget", id)).stdout).toContain(`forgot note ${id} of project demo`);
    expect((await t.cli("memory", "list", "demo")).stdout).not.toContain(id);
    const again = await t.cli("memory", "forget", id);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("already forgotten");
    expect((await t.cli("project", "set", "demo", "--memory-writers", "prompters")).stdout).toContain(
      "notes kept by prompters",
    );
    expect((await t.cli("project", "set", "demo", "--memory-writers", "all")).exitCode).toBe(2);
    const audit = await t.cli("audit", "--json", "--project", "demo");
    const rows = audit.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string; outcome: string });
    expect(rows.filter((r) => r.action.startsWith("memory.")).map((r) => `${r.action} ${r.outcome}`)).toEqual(
      ["memory.add ok", "memory.add ok", "memory.forget ok", "memory.forget refused"],
    );
  }, 60_000);

  it("S-MEM-16: the CLI adds a note for one channel with --channel; list --channel shows it beside the project's, a list without it or of another channel does not", async () => {
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    expect((await t.cli("project", "add", "demo", path.join(t.dir, "demo"))).exitCode).toBe(0);
    await t.cli("memory", "add", "demo", "staging", "is", "deployed", "with", "make", "ship");
    const added = await t.cli(
      "memory",
      "add",
      "demo",
      "--channel",
      "C123",
      "this",
      "channel",
      "is",
      "mobile",
    );
    expect(added.stdout).toMatch(/kept note (\w+) for project demo, place C123 only/);
    const here = await t.cli("memory", "list", "demo", "--channel", "C123");
    expect(here.stdout).toMatch(/\tgiven\tchannel:C123\tthis channel is mobile/);
    expect(here.stdout).toMatch(/\tgiven\tproject\tstaging is deployed with make ship/);
    for (const elsewhere of [["--channel", "C999"], []]) {
      const listed = await t.cli("memory", "list", "demo", ...elsewhere);
      expect(listed.stdout).toContain("staging is deployed with make ship");
      expect(listed.stdout).not.toContain("this channel is mobile");
    }
  }, 60_000);
});
