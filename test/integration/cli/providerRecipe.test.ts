import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { parse as parseToml } from "smol-toml";
import { afterEach, describe, expect, it } from "vitest";
import { codexHomeParent } from "../../support/codexHome.js";
import { startFakeModel, type FakeModel } from "../../support/fakeModel.js";
import { jailAvailable } from "../../support/jail.js";
import { tempDir } from "../../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");
const EXAMPLE_URL = "https://llm.example.com/v1";

/** The `sh` code blocks of a Markdown file, without the indentation of a list item's. */
const shBlocks = (file: string): string[] =>
  [...fs.readFileSync(file, "utf8").matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map((m) =>
    (m[2] as string).replace(new RegExp(`^${m[1]}`, "gm"), ""),
  );

/** The one `sh` block of `file` that contains `marker`. */
function block(file: string, marker: string): string {
  const found = shBlocks(file).filter((b) => b.includes(marker));
  expect(found, `${file}: one sh block with ${marker}`).toHaveLength(1);
  return found[0] as string;
}

// Issue 32: docs/setup.md's provider recipe, followed after the quick start's step 5, wrote
// `cli_auth_credentials_store` a second time, and doctor read that as a sandbox failure.
describe("the provider recipe of docs/setup.md after the quick start (POSIX sh, real CLI and Codex)", () => {
  let dir = "";
  let home = "";
  let model: FakeModel | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
    for (const d of [dir, home])
      fs.rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it("S-FH-11: step 5's config line then the recipe's commands, as written, give a config.toml that parses, and doctor's model check answers through the provider", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    dir = tempDir();
    model = await startFakeModel();
    // A fresh account: a HOME of its own, no CODEX_HOME (the docs' default, ~/.codex).
    // Outside the temp directory, where Codex would not make the helpers its sandbox needs.
    home = fs.mkdtempSync(path.join(codexHomeParent(), "codexpi-recipe-home-"));
    const shell = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const sh = (script: string) =>
      execa("sh", ["-euc", script], { cwd: home, env: shell, extendEnv: false, reject: false });
    // README step 5: its config line (the log-in itself is what the provider replaces).
    const step5 = block("README.md", "cli_auth_credentials_store")
      .split("\n")
      .filter((l) => l.includes("config.toml"));
    expect(step5).toHaveLength(1);
    expect((await sh(step5[0] as string)).exitCode).toBe(0);
    // The recipe, word for word but for its example base_url: the fake model's.
    const recipe = block("docs/setup.md", "[model_providers.mine]");
    expect(recipe.split(EXAMPLE_URL)).toHaveLength(2);
    const ran = await sh(recipe.replace(EXAMPLE_URL, model.url));
    expect(ran.stderr).toBe("");
    expect(ran.exitCode).toBe(0);
    const file = path.join(home, ".codex", "config.toml");
    const written = fs.readFileSync(file, "utf8");
    const config = parseToml(written) as Record<string, unknown>;
    expect(config).toMatchObject({
      cli_auth_credentials_store: "file",
      model: "gpt-5.5",
      model_provider: "mine",
      model_providers: { mine: { base_url: model.url, wire_api: "responses", env_key: "MY_PROVIDER_KEY" } },
    });
    // Control: the old recipe's top-level keys repeated step 5's line, which does not parse.
    const old = written.replace(
      "\n[model_providers.mine]",
      'cli_auth_credentials_store = "file"\n\n[model_providers.mine]',
    );
    expect(() => parseToml(old)).toThrow(/already defined/);

    const doctor = await execa(process.execPath, [CLI, "doctor"], {
      cwd: dir,
      env: {
        ...shell,
        CODEXPI_ENV_FILE: "none",
        CODEXPI_DATA_DIR: path.join(dir, "data"),
        CODEXPI_AGENT_ENV: "MY_PROVIDER_KEY",
        MY_PROVIDER_KEY: "sk-recipe-test",
        CODEXPI_IDLE_TIMEOUT: "5",
        CODEXPI_LOCALE: "en",
        LOG_LEVEL: "warn",
        NO_PROXY: "127.0.0.1,localhost",
      },
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    expect(doctor.stdout, doctor.stderr).toContain(`✓ codex config: ${file} parses`);
    expect(doctor.stdout).toMatch(/^✓ sandbox: /m);
    expect(doctor.stdout).toMatch(/^✓ model: gpt-5\.5 \(provider mine\) answered in [\d.]+ s/m);
    expect(model.requests.length).toBeGreaterThan(0);
  }, 150_000);
});
