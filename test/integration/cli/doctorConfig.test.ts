import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");

// Issue 32: a config.toml that does not parse (the provider recipe followed after the quick start
// wrote a key twice) was reported as a sandbox failure in Codex's words; doctor names it itself.
describe("codexpi doctor and Codex's config.toml (real CLI)", () => {
  let dir = "";
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  /** doctor with CODEX_HOME in `dir`, the real pinned Codex and no Slack: it answers in seconds. */
  const doctor = (locale: string) =>
    execa(process.execPath, [CLI, "doctor"], {
      cwd: dir,
      env: {
        CODEX_HOME: path.join(dir, "codex-home"),
        CODEXPI_DATA_DIR: path.join(dir, "data"),
        CODEXPI_ENV_FILE: "none",
        CODEXPI_LOCALE: locale,
        HOME: dir,
        LOG_LEVEL: "warn",
        PATH: process.env.PATH ?? "/usr/bin:/bin",
      },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });

  const writeConfig = (text: string) => {
    fs.mkdirSync(path.join(dir, "codex-home"), { recursive: true });
    fs.writeFileSync(path.join(dir, "codex-home", "config.toml"), text);
  };

  it("S-FH-08: a config.toml that does not parse is a codex config failure naming file:line:column and the fix, in English and French, and no sandbox failure", async () => {
    dir = tempDir();
    const file = path.join(dir, "codex-home", "config.toml");
    // The quick start's line, then the provider recipe appended with it again: line 3 repeats line 1.
    writeConfig(
      'cli_auth_credentials_store = "file"\nmodel = "gpt-5.5"\ncli_auth_credentials_store = "file"\n',
    );
    const en = await doctor("en");
    expect(en.exitCode).toBe(1);
    expect(en.stdout).toMatch(/^✓ configuration: /m);
    const line = en.stdout.split("\n").find((l) => l.startsWith("✗ codex config: "));
    expect(line).toBeDefined();
    expect(line).toContain(`${file}:3:1: `);
    expect(line).toMatch(/already defined.*\. Fix: correct that line of /);
    // The codex config line comes before the checks that read the file, which wait for it.
    expect(en.stdout.indexOf("codex config")).toBeLessThan(en.stdout.indexOf("database"));
    expect(en.stdout).not.toMatch(/^. sandbox: /m);
    expect(en.stdout).not.toMatch(/^. model: /m);
    const fr = await doctor("fr");
    expect(fr.stdout).toMatch(
      new RegExp(
        `^✗ configuration codex : ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:3:1 : .*\\. Correctif : corrige cette ligne de `,
        "m",
      ),
    );
    // Positive control: the same file without the repeated key parses, and the sandbox is checked.
    writeConfig('cli_auth_credentials_store = "file"\nmodel = "gpt-5.5"\n');
    const fixed = await doctor("en");
    expect(fixed.stdout).toContain(`✓ codex config: ${file} parses`);
    expect(fixed.stdout).toMatch(/^. sandbox: /m);
  }, 120_000);
});
