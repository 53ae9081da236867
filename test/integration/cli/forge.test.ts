import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, cliHarness } from "./harness.js";

// Issue 18: a project's forge settings and the forge tokens from the real binary. A token is read
// from standard input only, and shows in no output.

const TOKEN = "cli-forge-token-0a1b2c3d4e";

describe("codexpi project set --forge…, project credential and credential (real binary)", () => {
  const t = cliHarness();
  const withInput = (input: string, ...args: string[]) =>
    execa(process.execPath, [CLI, ...args], { env: t.env, reject: false, timeout: 60_000, input });

  it("S-FG-10: project set names the remote, forge, API URL and repository; a bad value says which; none clears", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const set = await t.cli(
      "project",
      "set",
      "demo",
      "--remote",
      "upstream",
      "--forge",
      "gitlab",
      "--forge-url",
      "https://git.corp.example/api/v4",
      "--forge-repo",
      "team/sub/app",
    );
    expect(set.exitCode).toBe(0);
    expect(set.stdout).toContain(
      "remote upstream, forge gitlab, API https://git.corp.example/api/v4, dépôt team/sub/app",
    );
    const kind = await t.cli("project", "set", "demo", "--forge", "bitbucket");
    expect(kind.exitCode).not.toBe(0);
    expect(kind.stderr).toMatch(/forge inconnue « bitbucket »/i);
    const url = await t.cli("project", "set", "demo", "--forge-url", "https://git.corp.example/");
    expect(url.exitCode).not.toBe(0);
    expect(url.stderr).toMatch(/adresse d’API invalide « https:\/\/git.corp.example\/? »/i);
    const cleared = await t.cli(
      "project",
      "set",
      "demo",
      "--forge",
      "none",
      "--forge-url",
      "none",
      "--forge-repo",
      "none",
    );
    expect(cleared.stdout).toContain("remote upstream, forge aucune, API aucune, dépôt aucune");
  });

  it("S-FG-09: a token is read from standard input into a 0600 file, never from an argument, and shows nowhere", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const file = path.join(t.dir, "data", "credentials", "forge-demo.token");
    const argv = await t.cli("project", "credential", "demo", "--forge-token", TOKEN);
    expect(argv.exitCode).not.toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    const stored = await withInput(`${TOKEN}\n`, "project", "credential", "demo", "--forge-token", "-");
    expect(stored.exitCode).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(TOKEN);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const install = await withInput(`${TOKEN}-install`, "credential", "--forge-token", "-");
    expect(install.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(t.dir, "data", "credentials", "forge.token"), "utf8")).toBe(
      `${TOKEN}-install`,
    );
    for (const r of [argv, stored, install]) expect(`${r.stdout}\n${r.stderr}`).not.toContain(TOKEN);
    const logs = path.join(t.dir, "data", "logs");
    for (const f of fs.existsSync(logs) ? fs.readdirSync(logs) : [])
      expect(fs.readFileSync(path.join(logs, f), "utf8")).not.toContain(TOKEN);
    expect((await t.cli("project", "credential", "demo", "--remove")).exitCode).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    const unknown = await withInput(TOKEN, "project", "credential", "nowhere", "--forge-token", "-");
    expect(unknown.exitCode).not.toBe(0);
    expect(unknown.stderr).not.toContain(TOKEN);
  });
});
