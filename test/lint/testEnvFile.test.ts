import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Every TypeScript file under `dir`. */
const tsFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f));

/**
 * The CLI starts in `text` that choose their whole environment (`extendEnv: false`, so vitest's
 * CODEXPI_ENV_FILE=none is lost) yet name neither CODEXPI_ENV_FILE nor a working directory of
 * their own: such a CLI reads the checkout's .env. By line.
 */
function unguardedCliStarts(text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(/extendEnv: false/g)) {
    const at = m.index ?? 0;
    const call = text.lastIndexOf("execa(", at);
    if (call < 0 || !/\[\s*(?:(?:CLI|cli)\b|await nobodysCli\(\))/.test(text.slice(call, call + 120)))
      continue;
    // The options and an `env` built just before the call.
    const window = text.slice(Math.max(0, call - 600), at);
    if (!/CODEXPI_ENV_FILE|\bcwd:/.test(window)) found.push(text.slice(0, at).split("\n").length);
  }
  return found;
}

// Issue 32: the quick start leaves real tokens in the checkout's .env (chmod 600); a test's CLI
// never reads it (S-FH-12 runs the files in a copy with such a .env).
describe("tests that start the CLI with an environment of their own", () => {
  it("S-FH-12: name CODEXPI_ENV_FILE (or a working directory of their own), so that no test reads the operator's .env", () => {
    const offenders = tsFiles("test").flatMap((file) =>
      unguardedCliStarts(fs.readFileSync(file, "utf8")).map((line) => `${file}:${line}`),
    );
    expect(offenders).toEqual([]);
    // Positive control: the start issue 32 found (doctorLocale's, before) is flagged.
    const before = `execa(process.execPath, [CLI, "doctor"], {\n  env: { CODEXPI_LOCALE: locale },\n  extendEnv: false,\n});`;
    expect(unguardedCliStarts(before)).toEqual([3]);
    expect(
      unguardedCliStarts(before.replace("{ CODEXPI_LOCALE", '{ CODEXPI_ENV_FILE: "none", CODEXPI_LOCALE')),
    ).toEqual([]);
  });
});
