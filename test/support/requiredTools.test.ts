import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { onPath, toolCheck } from "./requiredTools.mjs";

const having =
  (...installed: string[]) =>
  (command: string) =>
    installed.includes(command);

describe("the suite's global tool check", () => {
  it("passes silently with git and bubblewrap", () => {
    expect(toolCheck({ CODEXPI_REQUIRE_JAIL: "1" }, having("git", "bwrap"))).toEqual({
      fatal: [],
      notes: [],
    });
    expect(toolCheck({}, having("git", "bwrap"))).toEqual({ fatal: [], notes: [] });
  });

  it("git missing is fatal, in CI or not, naming the package and its install command", () => {
    for (const env of [{}, { CODEXPI_REQUIRE_JAIL: "1" }]) {
      const { fatal } = toolCheck(env, having("bwrap"));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain("git is not installed");
      expect(fatal[0]).toContain("apt-get install git");
    }
  });

  it("bubblewrap missing is fatal with CODEXPI_REQUIRE_JAIL=1, naming the package", () => {
    const { fatal } = toolCheck({ CODEXPI_REQUIRE_JAIL: "1" }, having("git"));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toContain("bwrap is not installed");
    expect(fatal[0]).toContain("apt-get install bubblewrap");
  });

  it("bubblewrap missing outside CI is fatal too (every worker runs jailed), naming the package and the way out", () => {
    for (const env of [{}, { CODEXPI_REQUIRE_JAIL: "0" }]) {
      const { fatal, notes } = toolCheck(env, having("git"));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain("apt-get install bubblewrap");
      expect(fatal[0]).toContain("CODEXPI_JAIL=off");
      expect(notes).toEqual([]);
    }
  });

  it("bubblewrap missing with CODEXPI_JAIL=off outside CI is a note: the jail tests skip with their reason", () => {
    const { fatal, notes } = toolCheck({ CODEXPI_JAIL: "off" }, having("git"));
    expect(fatal).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("apt-get install bubblewrap");
    // CI still fails without it, jail off or not.
    expect(toolCheck({ CODEXPI_JAIL: "off", CODEXPI_REQUIRE_JAIL: "1" }, having("git")).fatal).toHaveLength(
      1,
    );
  });

  it("both missing in CI: both named", () => {
    const { fatal } = toolCheck({ CODEXPI_REQUIRE_JAIL: "1" }, having());
    expect(fatal.join("\n")).toMatch(/apt-get install git[\s\S]*apt-get install bubblewrap/);
  });

  it("onPath finds an executable file on PATH, not a plain file nor a directory", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-path-"));
    fs.writeFileSync(path.join(dir, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    fs.writeFileSync(path.join(dir, "data"), "", { mode: 0o644 });
    fs.mkdirSync(path.join(dir, "folder"));
    const PATH = ["/nonexistent", dir].join(path.delimiter);
    expect(onPath("tool", PATH)).toBe(true);
    expect(onPath("data", PATH)).toBe(false);
    expect(onPath("folder", PATH)).toBe(false);
    expect(onPath("tool", "")).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  it("S-TEST-01: npm test checks the tools first, before building: without bubblewrap the check exits 1 in seconds naming the package", async () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.pretest?.startsWith("node test/support/requiredTools.mjs && ")).toBe(true);
    // A PATH with git and no bwrap.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-path-"));
    fs.writeFileSync(path.join(dir, "git"), "#!/bin/sh\n", { mode: 0o755 });
    const started = Date.now();
    const run = (env: Record<string, string>) =>
      execa(process.execPath, ["test/support/requiredTools.mjs"], {
        env: { PATH: dir, ...env },
        extendEnv: false,
        reject: false,
      });
    const without = await run({});
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(without.exitCode).toBe(1);
    expect(without.stderr).toContain("apt-get install bubblewrap");
    // Positive control: the same check passes once bwrap is there too.
    fs.writeFileSync(path.join(dir, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
    const withIt = await run({});
    expect(withIt.exitCode).toBe(0);
    expect(withIt.stderr).toBe("");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
