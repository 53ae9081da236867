import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/engine/database.js";
import { CLI, cliHarness } from "./harness.js";

// Issue 31, item 4, on the command line (real binary): the operator sets a project's setup and
// its secrets; the value is read from stdin, kept in a 0600 file of the data directory, never
// printed back (S-SETUP-07).

describe("codexpi project set --setup and project secret (real binary)", () => {
  const t = cliHarness();

  it("S-SETUP-07: sets and clears the setup, stores a secret read from stdin in a 0600 file, lists names only, unsets it", async () => {
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    await t.cli("project", "add", "demo", path.join(t.dir, "demo"));
    const set = await t.cli("project", "set", "demo", "--setup", "npm ci --offline");
    expect(set.exitCode, set.stderr).toBe(0);
    const setupOf = async () => {
      const db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
      try {
        return (
          await db
            .selectFrom("projects")
            .select("setup_command")
            .where("name", "=", "demo")
            .executeTakeFirstOrThrow()
        ).setup_command;
      } finally {
        await db.destroy();
      }
    };
    expect(await setupOf()).toBe("npm ci --offline");

    const value = "s3cret-value-9c2f1e";
    const secret = await execa(process.execPath, [CLI, "project", "secret", "set", "demo", "NPM_TOKEN"], {
      env: t.env,
      input: `${value}\n`,
      reject: false,
    });
    expect(secret.exitCode, secret.stderr).toBe(0);
    expect(secret.stdout + secret.stderr).not.toContain(value);
    const file = fs
      .readdirSync(path.join(t.dir, "data", "credentials"))
      .map((f) => path.join(t.dir, "data", "credentials", f))
      .find((f) => f.includes("setup-"));
    expect(file).toBeDefined();
    expect(fs.statSync(file as string).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file as string, "utf8")).toContain(value); // positive control: it was kept

    const list = await t.cli("project", "secret", "list", "demo");
    expect(list.stdout).toContain("NPM_TOKEN");
    expect(list.stdout).not.toContain(value);
    const badKey = await execa(
      process.execPath,
      [CLI, "project", "secret", "set", "demo", "SLACK_BOT_TOKEN"],
      {
        env: t.env,
        input: "x\n",
        reject: false,
      },
    );
    expect(badKey.exitCode).not.toBe(0);

    expect((await t.cli("project", "secret", "unset", "demo", "NPM_TOKEN")).exitCode).toBe(0);
    expect((await t.cli("project", "secret", "list", "demo")).stdout).not.toContain("NPM_TOKEN");
    expect((await t.cli("project", "set", "demo", "--setup", "none")).exitCode).toBe(0);
    expect(await setupOf()).toBeNull();
  }, 120_000);
});
