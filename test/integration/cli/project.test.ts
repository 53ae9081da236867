import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

// The CLI's project, doctor and help tests are split across files (projectWorkspace, projectLayout,
// doctorJail, help) so that vitest runs them side by side: together they were the suite's longest file.
describe("codexpi project set (real binary)", () => {
  const t = cliHarness();

  it("project set --approvals changes a project's approval mode; project list shows it; a bad mode is a usage error", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const bad = await t.cli("project", "set", "demo", "--approvals", "always");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--approvals");
    const set = await t.cli("project", "set", "demo", "--approvals", "on-request");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("on-request");
    // The listing reads in the operator's language (French: the harness sets CODEXPI_LOCALE=fr).
    expect((await t.cli("project", "list")).stdout).toContain("approbations à la demande");
    await t.cli("project", "set", "demo", "--approvals", "never");
    expect((await t.cli("project", "list")).stdout).not.toContain("approbations");
  });

  it("S-OPT-02: project set --models a,b lists the models a request may name, shown by project list; none goes back to the configured one; a bad name changes nothing", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    expect((await t.cli("project", "list")).stdout).not.toContain("modèles");
    const bad = await t.cli("project", "set", "demo", "--models", "gpt-5.5,bad name");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("bad name");
    expect((await t.cli("project", "list")).stdout).not.toContain("modèles"); // the refusal changed nothing
    const set = await t.cli("project", "set", "demo", "--models", "gpt-5.5, gpt-5.6-terra");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("demo : modèles permis : gpt-5.5, gpt-5.6-terra");
    expect((await t.cli("project", "list")).stdout).toContain("modèles gpt-5.5, gpt-5.6-terra");
    const none = await t.cli("project", "set", "demo", "--models", "none");
    expect(none.stdout).toContain("le modèle configuré seulement");
    expect((await t.cli("project", "list")).stdout).not.toContain("modèles");
  });

  it("project set --steer on|off lets replies steer the running turn; project list shows it; a bad value is a usage error", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const bad = await t.cli("project", "set", "demo", "--steer", "maybe");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--steer");
    const set = await t.cli("project", "set", "demo", "--steer", "on");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("orientation on");
    expect((await t.cli("project", "list")).stdout).toContain("les réponses orientent le tour en cours");
    await t.cli("project", "set", "demo", "--steer", "off");
    expect((await t.cli("project", "list")).stdout).not.toContain("orientent");
  });
});
