import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { resolveCodexBinary } from "../../../src/engine/codex/codexBinary.js";
import { packageRoot } from "../../../src/engine/system/paths.js";
import { en } from "../../../src/i18n/en.js";
import { fr } from "../../../src/i18n/fr.js";
import { t, type MessageKey } from "../../../src/i18n/index.js";
import { makeCodexHome } from "../../support/codexHome.js";
import { tempDir } from "../../support/engine.js";

const CLI = path.resolve("dist/bin/main.js");

/** The commands a text's fix names: its code spans after "Fix" (English) or "Correctif" (French). */
function fixCommands(text: string): string[] {
  const at = text.search(/Fix\b|Correctif\b/);
  return at < 0 ? [] : [...text.slice(at).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

/** A shell-free reading of a fix command: its pipeline's stages, each `VAR=value`s then argv. */
function stages(command: string): { env: Record<string, string>; argv: string[] }[] {
  return command.split("|").map((stage) => {
    const words = stage.trim().split(/\s+/);
    const env: Record<string, string> = {};
    while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
      const [name, ...value] = (words.shift() as string).split("=");
      env[name as string] = value.join("=");
    }
    return { env, argv: words };
  });
}

/**
 * The operator's PATH: npm and npx put the install's node_modules/.bin on the PATH of what they run
 * (this test included), a shell does not.
 */
const SHELL_PATH = (process.env.PATH ?? "/usr/bin:/bin")
  .split(path.delimiter)
  .filter((d) => !d.includes(`node_modules${path.sep}.bin`))
  .join(path.delimiter);

/**
 * Whether a fix command runs as printed, changing nothing: each stage's program is found (on the
 * PATH or as a path) and answers its own arguments with `--help` added, or `--version`.
 */
async function runs(command: string): Promise<string | null> {
  for (const { env, argv } of stages(command)) {
    const [program, ...rest] = argv;
    if (!program) return `${command}: an empty stage`;
    const opts = {
      env: { ...env, PATH: SHELL_PATH },
      reject: false,
      timeout: 30_000,
      stdin: "ignore",
    } as const;
    const help = await execa(program, [...rest, "--help"], opts);
    if (help.exitCode === 0) continue;
    const version = await execa(program, ["--version"], opts);
    if (version.exitCode !== 0) return `${command}: ${program} does not run (${help.shortMessage})`;
  }
  return null;
}

const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

// Issue 32: doctor said `codex login`, and no `codex` is on the PATH (npm ci installs it in the
// install's node_modules). Every command a fix names must run as printed.
describe("the commands doctor's fixes name (real CLI and Codex)", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true, maxRetries: 10 });
  });

  it("S-FH-10: every command in a fix of doctor's catalog (English and French), filled as doctor fills it, runs", async () => {
    const home = tempDir();
    made.push(home);
    const filled = { codex: resolveCodexBinary() ?? "codex", install: packageRoot(), home };
    const commands = new Set<string>();
    for (const [locale, catalog] of [["en", en] as const, ["fr", fr] as const])
      for (const key of Object.keys(catalog) as MessageKey[])
        if (/^cli\.(doctor|jail)\./.test(key))
          for (const c of fixCommands(t(locale, key, filled))) commands.add(c);
    // The ones issue 32 names, and the installs: the catalog scan found them.
    expect([...commands].some((c) => c.includes(`${filled.codex} login`))).toBe(true);
    expect(commands).toContain(`npm --prefix ${filled.install} ci`);
    expect(commands).toContain("apt-get install bubblewrap");
    const failed = (await Promise.all([...commands].map(runs))).filter((f) => f !== null);
    expect(failed).toEqual([]);
    // Positive control: the fix issue 32 found is refused by the same check.
    expect(await runs("codex login")).toMatch(/codex does not run/);
  }, 120_000);

  it("S-FH-10: the fixes doctor prints for a Codex that is not logged in, or not installed, run as printed", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const codexHome = await makeCodexHome(url, { authFile: true }); // no auth.json
    const data = tempDir();
    made.push(codexHome.dir, data);
    const doctor = (env: Record<string, string>) =>
      execa(process.execPath, [CLI, "doctor"], {
        cwd: data,
        env: {
          CODEX_HOME: codexHome.dir,
          CODEXPI_DATA_DIR: path.join(data, "data"),
          CODEXPI_ENV_FILE: "none",
          CODEXPI_LOCALE: "en",
          PATH: SHELL_PATH,
          ...env,
        },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
    const printed = [
      ...(await doctor({})).stdout.split("\n"),
      ...(await doctor({ CODEX_BIN: path.join(data, "no-codex-here") })).stdout.split("\n"),
    ];
    const fixes = printed.filter((l) => l.startsWith("✗") && l.includes("Fix"));
    expect(fixes.find((l) => l.startsWith("✗ model: "))).toContain(`login\``);
    expect(fixes.find((l) => l.startsWith("✗ codex: "))).toContain("`npm --prefix ");
    const commands = fixes.flatMap(fixCommands);
    expect(commands.length).toBeGreaterThanOrEqual(3);
    expect((await Promise.all(commands.map(runs))).filter((f) => f !== null)).toEqual([]);
  }, 120_000);
});
