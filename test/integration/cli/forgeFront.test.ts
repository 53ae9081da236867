import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { CLI, cliHarness } from "./harness.js";

// Issue 33 from the real binary: a project's forge channel, handle and webhook secret (read from
// standard input only, shown nowhere), and the links an admin makes.

const SECRET = "cli-webhook-secret-9f8e7d6c5b";

describe("codexpi forge set|link|unlink (real binary)", () => {
  const t = cliHarness();
  const withInput = (input: string, ...args: string[]) =>
    execa(process.execPath, [CLI, ...args], { env: t.env, reject: false, timeout: 60_000, input });

  it("S-FORGE-13: the webhook secret is read from standard input into a 0600 file and shows nowhere; a value given as an argument is refused; links are made and removed", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const file = path.join(t.dir, "data", "credentials", "forge-webhook-demo.secret");
    const asArgument = await t.cli("forge", "set", "demo", "--webhook-secret", SECRET);
    expect(asArgument.exitCode).not.toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    const set = await withInput(
      `${SECRET}\n`,
      "forge",
      "set",
      "demo",
      "--webhook-secret",
      "-",
      "--channel",
      "C0FORGE1",
    );
    expect(set.exitCode, set.stderr).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(SECRET);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(`${set.stdout}${set.stderr}`).not.toContain(SECRET);
    expect(set.stdout).toContain("C0FORGE1");
    const triggers = await t.cli("forge", "set", "demo", "--triggers", "issues");
    expect(triggers.stdout).toContain("déclencheurs issues");
    expect((await t.cli("forge", "set", "demo", "--triggers", "deploys")).exitCode).not.toBe(0);
    const linked = await t.cli("forge", "link", "github:OctoCat", "U0123ABC");
    expect(linked.exitCode, linked.stderr).toBe(0);
    expect(linked.stdout).toContain("U0123ABC");
    const bad = await t.cli("forge", "link", "bitbucket:someone", "U0123ABC");
    expect(bad.exitCode).not.toBe(0);
    const unlinked = await t.cli("forge", "unlink", "github:octocat");
    expect(unlinked.exitCode).toBe(0);
    const again = await t.cli("forge", "unlink", "github:octocat");
    expect(again.stdout).not.toBe(unlinked.stdout);
    const removed = await t.cli("forge", "set", "demo", "--remove-webhook-secret");
    expect(removed.exitCode).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  }, 120_000);

  it("S-FORGE-25: --triggers takes ci; --fix-ci on|off and --fix-ci-tries N (1 to 20) are kept and shown (default off, 2 tries); other values are refused and change nothing", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const before = await t.cli("forge", "set", "demo");
    expect(before.stdout).toContain("correction de CI off (au plus 2 essais");
    const on = await t.cli(
      "forge",
      "set",
      "demo",
      "--triggers",
      "comments,ci",
      "--fix-ci",
      "on",
      "--fix-ci-tries",
      "3",
    );
    expect(on.exitCode, on.stderr).toBe(0);
    expect(on.stdout).toContain("déclencheurs comments,ci, correction de CI on (au plus 3 essais");
    for (const bad of [
      ["--fix-ci", "yes"],
      ["--fix-ci-tries", "0"],
      ["--fix-ci-tries", "21"],
      ["--fix-ci-tries", "two"],
    ])
      expect((await t.cli("forge", "set", "demo", ...bad)).exitCode, bad.join(" ")).not.toBe(0);
    const off = await t.cli("forge", "set", "demo", "--fix-ci", "off");
    expect(off.stdout).toContain("correction de CI off (au plus 3 essais");
  }, 120_000);

  it("S-FORGE-60: project set takes --forge-channel, --forge-triggers and --forge-webhook-secret - (standard input only), checked as forge set checks them; a refused value names its option and changes nothing; forge set still works, and takes --forks on|off (default off)", async () => {
    await t.setup();
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const file = path.join(t.dir, "data", "credentials", "forge-webhook-demo.secret");
    const asArgument = await t.cli("project", "set", "demo", "--forge-webhook-secret", SECRET);
    expect(asArgument.exitCode).not.toBe(0);
    expect(asArgument.stderr).toContain("--forge-webhook-secret");
    expect(`${asArgument.stdout}${asArgument.stderr}`).not.toContain(SECRET);
    expect(fs.existsSync(file)).toBe(false);
    const bad = await t.cli(
      "project",
      "set",
      "demo",
      "--forge-channel",
      "#general",
      "--forge-triggers",
      "ci",
    );
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("--forge-channel");
    const kept = await t.cli("forge", "set", "demo");
    expect(kept.stdout).toContain("canal forge -");
    expect(kept.stdout).toContain("déclencheurs comments,issues");
    const set = await withInput(
      `${SECRET}\n`,
      "project",
      "set",
      "demo",
      "--forge-channel",
      "#C0FORGE2",
      "--forge-triggers",
      "comments,ci",
      "--forge-webhook-secret",
      "-",
    );
    expect(set.exitCode, set.stderr).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(SECRET);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(`${set.stdout}${set.stderr}`).not.toContain(SECRET);
    expect(set.stdout).toContain("C0FORGE2");
    expect(set.stdout).toContain("déclencheurs comments,ci");
    const triggers = await t.cli("project", "set", "demo", "--forge-triggers", "deploys");
    expect(triggers.exitCode).not.toBe(0);
    expect(triggers.stderr).toContain("--forge-triggers");
    const after = await t.cli("forge", "set", "demo", "--handle", "helper");
    expect(after.exitCode, after.stderr).toBe(0);
    expect(after.stdout).toContain("C0FORGE2");
    expect(after.stdout).toContain("déclencheurs comments,ci");
    expect(after.stdout).toContain("@helper");
    expect(after.stdout).toContain("pull requests venues de forks off");
    const forks = await t.cli("forge", "set", "demo", "--forks", "on");
    expect(forks.exitCode, forks.stderr).toBe(0);
    expect(forks.stdout).toContain("pull requests venues de forks on");
    const badForks = await t.cli("forge", "set", "demo", "--forks", "yes");
    expect(badForks.exitCode).not.toBe(0);
    expect(badForks.stderr).toContain("--forks");
  }, 120_000);
});
