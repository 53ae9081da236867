import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 17 item 4: no function over 80 lines in src/. Biome's noExcessiveLinesPerFunction is that
// rule; these tests prove the repository's configuration of it bites, so a config edit that
// quietly disables it fails here rather than letting long functions back in.

const RULE = "noExcessiveLinesPerFunction";
const biome = path.resolve("node_modules/.bin/biome");

interface Override {
  includes: string[];
  linter?: { rules?: { complexity?: Record<string, unknown> } };
}

function overrides(): Override[] {
  const config = JSON.parse(fs.readFileSync("biome.json", "utf8")) as { overrides?: Override[] };
  return config.overrides ?? [];
}

function ruleIn(override: Override): unknown {
  return override.linter?.rules?.complexity?.[RULE];
}

// Biome counts the lines between the signature and the closing brace, so `bodyLines` is the number
// it reports (and compares with maxLines), not the number of lines in the file.
function functionWithBodyLines(bodyLines: number): string {
  const body = Array.from({ length: bodyLines - 1 }, (_, i) => `  total += ${i};`);
  return ["export function long(total: number): number {", ...body, "  return total;", "}", ""].join("\n");
}

describe("no function over 80 lines in src", () => {
  let dir: string;

  beforeAll(() => {
    const enabling = overrides().filter((o) => ruleIn(o) !== undefined && ruleIn(o) !== "off");
    expect(enabling).toHaveLength(1);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-fnlen-"));
    // Just this rule, copied from the repository's configuration, on a fixture outside the repo.
    const config = {
      linter: { enabled: true, rules: { preset: "none", complexity: { [RULE]: ruleIn(enabling[0]!) } } },
    };
    fs.writeFileSync(path.join(dir, "biome.json"), JSON.stringify(config));
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function lint(bodyLines: number) {
    const file = path.join(dir, `body${bodyLines}.ts`);
    fs.writeFileSync(file, functionWithBodyLines(bodyLines));
    return execa(biome, ["lint", "--config-path", dir, "--colors=off", file], { cwd: dir, reject: false });
  }

  it("the rule is on for src/** with a maximum of 80 lines", () => {
    const src = overrides().find((o) => o.includes.length === 1 && o.includes[0] === "src/**");
    expect(src && ruleIn(src)).toEqual({ level: "error", options: { maxLines: 80 } });
  });

  it("exempts no file", () => {
    const exempt = overrides()
      .filter((o) => ruleIn(o) === "off")
      .flatMap((o) => o.includes);
    expect(exempt).toEqual([]);
  });

  it("fails a function of 81 lines", async () => {
    const result = await lint(81);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(`lint/complexity/${RULE}`);
    expect(result.stdout + result.stderr).toContain("too many lines (81). Maximum allowed is 80");
  });

  it("passes a function of 80 lines", async () => {
    const result = await lint(80);
    expect(result.stdout + result.stderr).not.toContain(RULE);
    expect(result.exitCode).toBe(0);
  });
});
