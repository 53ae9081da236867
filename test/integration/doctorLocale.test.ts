import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeSlack, type FakeSlack } from "../support/fakeSlack.js";
import { tempDir } from "../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");

// doctor speaks the operator's language (CODEXPI_LOCALE), its names, details, fixes and
// punctuation included; the real CLI, with no Codex binary so that it answers in seconds.
describe("codexpi doctor in each language", () => {
  let dir = "";
  let slack: FakeSlack | undefined;
  afterEach(async () => {
    await slack?.close();
    slack = undefined;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  const doctor = (locale: string, extra: Record<string, string> = {}) =>
    execa(process.execPath, [CLI, "doctor"], {
      env: {
        CODEXPI_DATA_DIR: path.join(dir, "data"),
        CODEXPI_LOCALE: locale,
        CODEXPI_ENV_FILE: "none", // never the checkout's .env (the quick start's real tokens, chmod 600)
        CODEX_BIN: path.join(dir, "no-codex-here"),
        LOG_LEVEL: "warn",
        NO_PROXY: "127.0.0.1,localhost",
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        ...extra,
      },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });

  it("a French-locale doctor prints French (and an English one English: the control)", async () => {
    dir = tempDir();
    slack = await startFakeSlack({ scopes: ["chat:write", "commands"] });
    const slackEnv = { SLACK_BOT_TOKEN: "xoxb-ok", SLACK_API_URL: slack.apiUrl };
    const fr = await doctor("fr", slackEnv);
    expect(fr.exitCode).toBe(1);
    expect(fr.stdout).toMatch(/^✓ configuration : répertoire de données /m);
    expect(fr.stdout).toMatch(/^✓ base de données : /m);
    expect(fr.stdout).toMatch(
      /^✗ codex : binaire introuvable\. Correctif : `npm --prefix \/\S+ ci` \(installe @openai\/codex\), ou règle CODEX_BIN sur un binaire codex$/m,
    );
    expect(fr.stdout).toMatch(/^✓ slack : auth\.test ok : /m);
    expect(fr.stdout).toMatch(
      /^✗ scopes slack : il manque à SLACK_BOT_TOKEN app_mentions:read, .*\. Correctif : /m,
    );
    expect(fr.stdout).not.toMatch(
      /Fix:|not found|lacks|is granted|jailed process|NOT isolated|not installed/,
    );
    // The jail's probe, whatever its outcome here, in French too.
    expect(fr.stdout).toMatch(
      /^[✓✗] [^:\n]+ : [^\n]*(processus emprisonné|n’est pas installé|ne sont PAS isolés|ne démarre pas)/m,
    );
    // Every line is "mark name : detail" (a warning's mark is "!"), French spacing before the colon.
    for (const line of fr.stdout.trim().split("\n")) expect(line).toMatch(/^[✓✗!] [^:]+ : /);

    const en = await doctor("en", slackEnv);
    expect(en.exitCode).toBe(1);
    expect(en.stdout).toMatch(
      /^✗ codex: binary not found\. Fix: `npm --prefix \/\S+ ci` \(it installs @openai\/codex\), or set CODEX_BIN to a codex binary$/m,
    );
    expect(en.stdout).toMatch(/^✗ slack scopes: SLACK_BOT_TOKEN lacks app_mentions:read, .*\. Fix: /m);
  });

  it("a missing bot token is said in French too", async () => {
    dir = tempDir();
    const fr = await doctor("fr");
    expect(fr.stdout).toMatch(/^✗ slack : SLACK_BOT_TOKEN n’est pas défini$/m);
  });

  it("a database it cannot use is explained in French, with its fix (English: the control)", async () => {
    dir = tempDir();
    // Its directory would have to be made inside a regular file: no user can open it.
    const blocker = path.join(dir, "a-file");
    fs.writeFileSync(blocker, "");
    const broken = { DATABASE_URL: `sqlite:${path.join(blocker, "codexpi.db")}` };
    const fr = await doctor("fr", broken);
    expect(fr.exitCode).toBe(1);
    expect(fr.stdout).toMatch(
      /^✗ base de données : impossible d’(ouvrir|utiliser) la base .*\. Correctif : /m,
    );
    expect(fr.stdout).not.toMatch(/cannot (open|use) the database|Fix:/);
    const en = await doctor("en", broken);
    expect(en.stdout).toMatch(/^✗ database: cannot (open|use) the database .*\. Fix: /m);
  });
});
