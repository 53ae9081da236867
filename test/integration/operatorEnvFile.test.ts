import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine.js";

const NOBODY = 65534;
/** What the quick start leaves at the checkout's root: real-looking tokens, readable by root only. */
const OPERATOR_ENV =
  "SLACK_BOT_TOKEN=xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx\n" +
  "SLACK_APP_TOKEN=xapp-1-A0123456789-1234567890123-0123456789abcdef0123456789abcdef\n" +
  "CODEXPI_ADMINS=U0123ABC\n";
/** What a clone holds that a test run needs (node_modules is linked, not copied). */
const CHECKOUT = [
  "src",
  "test",
  "db",
  "dist",
  "package.json",
  "vitest.config.ts",
  "tsconfig.json",
  "manifest.yml",
];

/**
 * A copy of this checkout in a directory others may enter, with the quick start's `.env` (chmod
 * 600, root's) at its root: the real checkout is never touched.
 */
function cloneWithOperatorEnv(): string {
  const clone = tempDir("codexpi-clone-");
  fs.chmodSync(clone, 0o755);
  for (const name of CHECKOUT) fs.cpSync(path.resolve(name), path.join(clone, name), { recursive: true });
  fs.symlinkSync(fs.realpathSync("node_modules"), path.join(clone, "node_modules"));
  fs.writeFileSync(path.join(clone, ".env"), OPERATOR_ENV, { mode: 0o600 });
  return clone;
}

// Issue 32: after the quick start, `npm test` failed: the tests that start the CLI with only the
// variables they chose (extendEnv: false) lost vitest's CODEXPI_ENV_FILE=none, so the CLI read
// the checkout's .env: as nobody it could not (EACCES), and a doctor test found its real token.
describe("the tests and the operator's .env (a copy of the checkout, the real suite files)", () => {
  let clone = "";
  afterEach(() => {
    if (clone) fs.rmSync(clone, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    clone = "";
  });

  it("S-FH-12: with a chmod-600 .env holding real-looking tokens at the checkout's root, the tests that start the CLI as nobody or with an environment of their own pass: none reads it", async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // nobody's half needs root
    clone = cloneWithOperatorEnv();
    const cli = path.join(clone, "dist", "bin", "main.js");
    // Positive control: a CLI started there without the tests' setting reads the file (as nobody,
    // it fails on it; as root, the token is there for `doctor` to use).
    const asNobody = await execa(process.execPath, [cli, "project", "list"], {
      cwd: clone,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: clone, CODEXPI_LOCALE: "en" },
      extendEnv: false,
      uid: NOBODY,
      gid: NOBODY,
      reject: false,
      timeout: 30_000,
    });
    expect(asNobody.exitCode).toBe(1);
    expect(asNobody.stderr).toContain(`cannot read the environment file ${path.join(clone, ".env")}: EACCES`);

    // The suite's files that start the CLI with an environment of their own, run in the copy by
    // its own vitest, as `npm test` runs them (CODEXPI_ENV_FILE unset, as in a shell).
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith("VITEST") && k !== "CODEXPI_ENV_FILE") env[k] = v;
    const vitest = (args: string[]) =>
      execa(
        process.execPath,
        [path.join(clone, "node_modules", "vitest", "vitest.mjs"), "run", "--project", "sqlite", ...args],
        {
          cwd: clone,
          env: { ...env, CODEXPI_TEST_WORKERS: "2", NO_COLOR: "1", FORCE_COLOR: "0" },
          extendEnv: false,
          reject: false,
          timeout: 240_000,
        },
      );
    const files = await vitest([
      "test/integration/doctorLocale.test.ts",
      "test/integration/storageFaults.test.ts",
      "test/integration/startup.test.ts",
      "test/integration/cli/language.test.ts",
    ]);
    expect(files.exitCode, files.stdout.slice(-3000)).toBe(0);
    expect(files.stdout).toMatch(/Test Files\s+4 passed/);
    const failOnLogin = await vitest(["test/integration/doctor.test.ts", "-t", "S-FAIL-05"]);
    expect(failOnLogin.exitCode, failOnLogin.stdout.slice(-3000)).toBe(0);
    expect(failOnLogin.stdout).toMatch(/Tests\s+1 passed/);
  }, 300_000);
});
