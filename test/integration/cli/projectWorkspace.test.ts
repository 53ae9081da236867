import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cliHarness } from "./harness.js";

describe("codexpi project set --workspace (real binary)", () => {
  const t = cliHarness();

  it("project set --workspace: direct is set and listed; branch is refused for a directory that is no repository and set for a repository; a bad value is a usage error", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const bad = await t.cli("project", "set", "demo", "--workspace", "lanes");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--workspace");
    const set = await t.cli("project", "set", "demo", "--workspace", "direct");
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain("espace de travail direct");
    expect((await t.cli("project", "list")).stdout).toContain(
      "direct (un agent à la fois dans sa copie de travail)",
    );
    const noRepository = await t.cli("project", "set", "demo", "--workspace", "branch");
    expect(noRepository.exitCode).not.toBe(0);
    expect(noRepository.stderr).toContain("n’est pas la racine d’un dépôt git");
    await execa("git", ["init", "-q", path.join(t.dir, "demo")]);
    expect((await t.cli("project", "list")).stdout).toContain("direct (un agent à la fois"); // positive control
    const branch = await t.cli("project", "set", "demo", "--workspace", "branch");
    expect(branch.exitCode).toBe(0);
    expect(branch.stdout).toContain("espace de travail branch");
    expect((await t.cli("project", "list")).stdout).toContain("branche (une voie par conversation)");
  });
});
