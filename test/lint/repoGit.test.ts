import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { lineOf, stripComments, tsFilesUnder } from "../support/sourceScan.js";

// Issue 16: codexpi never runs git on a repository an agent could have written except through
// src/engine/isolation/repoGit.ts (jailed, its configuration disarmed). Any other way of starting
// git in src/ is refused here; asking git its version (no repository involved) is the one exception.
const OWNER = "src/engine/isolation/repoGit.ts";

const STARTS_GIT = [
  // A process started with git as its program.
  /\b(?:execa|execaSync|execaNode|execFile|execFileSync|spawn|spawnSync|exec|execSync)\s*\(\s*["'`]git["'`]/g,
  // An argv whose program is git (handed to a spawner later).
  /\[\s*["'`]git["'`]\s*,/g,
  // Libraries that run git themselves.
  /from\s+["'](?:simple-git|isomorphic-git|nodegit)["']/g,
  /\brequire\s*\(\s*["'](?:simple-git|nodegit)["']\s*\)/g,
  // A shell line naming git.
  /["'`](?:sh|bash)["'`]\s*,\s*\[\s*["'`]-c["'`]\s*,\s*["'`][^"'`]*\bgit\b/g,
];
const VERSION_QUERY = /^\s*,\s*\[\s*["'`]--version["'`]\s*\]/;

/** The lines of `source` that start git other than through repoGit (a version query excepted). */
function gitStarts(source: string): number[] {
  const code = stripComments(source);
  const lines: number[] = [];
  for (const pattern of STARTS_GIT)
    for (const m of code.matchAll(pattern)) {
      if (VERSION_QUERY.test(code.slice(m.index + m[0].length))) continue;
      lines.push(lineOf(code, m.index));
    }
  return lines.sort((a, b) => a - b);
}

describe("git runs on agent-written content only through repoGit", () => {
  it("no file of src/ but repoGit.ts starts git", () => {
    const offenders = tsFilesUnder("src")
      .map((f) => f.split("\\").join("/"))
      .filter((f) => f !== OWNER)
      .flatMap((f) => gitStarts(fs.readFileSync(f, "utf8")).map((line) => `${f}:${line}`));
    expect(offenders).toEqual([]);
  });

  it("repoGit.ts itself is found by the scan (the check sees a real git start)", () => {
    expect(gitStarts(fs.readFileSync(OWNER, "utf8")).length).toBeGreaterThan(0);
  });

  it("fixture: each way of starting git is found, a version query and comments are not", () => {
    const fixture = [
      `await execa("git", ["status"], { cwd: project.path });`,
      `spawn('git', args);`,
      `const argv = ["git", "merge", rev];`,
      `import { simpleGit } from "simple-git";`,
      `execa("sh", ["-c", "cd x && git pull"]);`,
      `await execa("git", ["--version"], { reject: false });`,
      `// execa("git", ["status"]) in a comment`,
      `const name = "git";`,
    ].join("\n");
    expect(gitStarts(fixture)).toEqual([1, 2, 3, 4, 5]);
  });
});
