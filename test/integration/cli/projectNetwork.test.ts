import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, cliHarness } from "./harness.js";

// Issue 31, item 3, on the command line (real binary): the operator (an admin) sets a project's
// network and its hosts; project list shows it; doctor suggests a list for an open project, and
// the commands it prints run as printed.

describe("codexpi project set --network, allow-host, deny-host (real binary)", () => {
  const t = cliHarness();

  it("sets the mode, adds presets, entries and private addresses, removes them; list shows the network; bad input is a usage error", async () => {
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    expect((await t.cli("project", "list")).stdout).toContain("no network");

    const bad = await t.cli("project", "set", "demo", "--network", "wide");
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--network takes off, allowlist or open");
    const noHost = await t.cli("project", "allow-host", "demo");
    expect(noHost.exitCode).not.toBe(0);
    expect(noHost.stderr).toContain(
      "allow-host and deny-host take a project, then at least one HOST[:PORT] or preset (npm, pypi, crates, github, debian",
    );
    const badHost = await t.cli("project", "allow-host", "demo", "https://example.com/path");
    expect(badHost.exitCode).not.toBe(0);
    expect(badHost.stderr).toContain("`https://example.com/path` is not a host to allow");

    const added = await t.cli("project", "allow-host", "demo", "pypi", "127.0.0.1:4873", "*.example.com");
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toBe(
      "demo: added pypi.org, files.pythonhosted.org, 127.0.0.1:4873, *.example.com\n" +
        "demo: network allowlist, hosts listed: pypi.org, files.pythonhosted.org, 127.0.0.1:4873, *.example.com",
    );
    expect((await t.cli("project", "list")).stdout).toContain(
      "network pypi.org, files.pythonhosted.org, 127.0.0.1:4873, *.example.com",
    );
    const denied = await t.cli("project", "deny-host", "demo", "pypi", "127.0.0.1");
    expect(denied.stdout).toContain("demo: removed pypi.org, files.pythonhosted.org, 127.0.0.1:4873");
    expect((await t.cli("project", "deny-host", "demo", "nothere.example")).stdout).toContain(
      "demo: nothing changed",
    );

    const open = await t.cli("project", "set", "demo", "--network", "open");
    expect(open.stdout).toContain("project demo changed: network open");
    expect((await t.cli("project", "list")).stdout).toContain("network open");
    // The operator's language: French with CODEXPI_LOCALE=fr.
    t.env.CODEXPI_LOCALE = "fr";
    expect((await t.cli("project", "set", "demo", "--network", "off")).stdout).toContain(
      "projet demo modifié : réseau off",
    );
    expect((await t.cli("project", "list")).stdout).toContain("pas de réseau");
  });

  it("doctor names each open project with the commands that give it a list, presets from its files; they run as printed", async () => {
    await t.setup();
    const dir = path.join(t.dir, "web app");
    fs.mkdirSync(dir);
    for (const file of ["package.json", "requirements-dev.txt", "go.mod"])
      fs.writeFileSync(path.join(dir, file), "");
    await t.cli("project", "add", "web app", dir, "--full-access");
    await t.cli("project", "add", "plain", path.join(t.dir, "demo"));
    await t.cli("project", "set", "web app", "--network", "open");
    await t.cli("project", "set", "plain", "--network", "open");
    const doctor = () =>
      execa(process.execPath, [CLI, "doctor"], {
        env: { ...t.env, CODEXPI_LOCALE: "en", CODEX_BIN: path.join(t.dir, "no-codex-here") },
        reject: false,
        timeout: 60_000,
      });
    const line = (await doctor()).stdout.split("\n").find((l) => l.includes("project networks:"));
    expect(line).toBe(
      "! project networks: project plain is open to every public host; to limit it, run `codexpi project set plain --network allowlist`, then add the hosts it needs (codexpi project allow-host); " +
        "project web app is open to every public host; to limit it to what it needs, run `codexpi project allow-host 'web app' npm pypi golang` then `codexpi project set 'web app' --network allowlist`",
    );

    // Run as printed, through a shell, with `codexpi` on PATH as an install puts it.
    const bin = path.join(t.dir, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "codexpi"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
      mode: 0o755,
    });
    const commands = [...(line ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    expect(commands).toHaveLength(3);
    for (const command of commands) {
      const r = await execa("sh", ["-c", command], {
        env: { ...t.env, PATH: `${bin}:${process.env.PATH}` },
        reject: false,
      });
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(0);
    }
    expect((await doctor()).stdout).toMatch(
      /^✓ project networks: no project is open to the whole internet$/m,
    );
    const list = (await t.cli("project", "list")).stdout;
    expect(list).toContain(
      "réseau registry.npmjs.org, registry.yarnpkg.com, pypi.org, files.pythonhosted.org, proxy.golang.org, sum.golang.org",
    );
  });
});
