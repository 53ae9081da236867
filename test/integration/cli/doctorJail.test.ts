import { jailAvailable } from "../../support/jail.js";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi doctor's jail check (real binary)", () => {
  const t = cliHarness();

  it("doctor reports the jail and proves it with a jailed read outside the workspace; with the jail off it says agents are not isolated", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    const on = await t.cli("doctor");
    expect(on.stdout).toMatch(
      /^✓ jail: bubblewrap [\d.]+ \(user, pid, ipc, uts namespaces; private \/tmp and \/proc\): a jailed process could not read the data directory/m,
    );
    expect(on.stdout).toMatch(/^✓ sandbox: restricted projects can run commands \(inside the jail\)/m);
    t.env = { ...t.env, CODEXPI_JAIL: "off" };
    const off = await t.cli("doctor");
    expect(off.exitCode).toBe(1);
    expect(off.stdout).toContain("✗ jail: none: CODEXPI_JAIL=off: agents and test commands are NOT isolated");
  });
});
