/**
 * What changed in a lane (S-CARD-01): read from a real sealed clone with git in the jail, bounded,
 * and never running what an agent planted in the clone's `.git`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { laneChanges } from "../../../src/engine/lanes/index.js";
import { jailAvailable } from "../../support/jail.js";
import { git } from "../orchestrations/repo.js";
import { commitAll, fired, JAIL, lane, plainGit, plant, project, write } from "./lane.js";

let jail = false;
const dirs: string[] = [];
beforeAll(async () => {
  jail = await jailAvailable();
});
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A project and its lane with two commits: app.txt edited, notes.md added, then a binary file. */
async function twoCommitLane() {
  const p = await project();
  dirs.push(p.dir);
  write(p.root, "old.txt", "gone\nsoon\n");
  await commitAll(p.root, "Old file");
  const l = await lane(p);
  write(l.clone, "app.txt", "one\nTWO\nthree\nfour\n");
  write(l.clone, "notes.md", "a\nb\nc\n");
  const first = await commitAll(l.clone, "Edit app, add notes");
  write(l.clone, "logo.bin", Buffer.from([0, 1, 2, 0, 255, 0]));
  fs.rmSync(path.join(l.clone, "old.txt"));
  const second = await commitAll(l.clone, "Binary logo, drop old");
  return { p, l, first, second };
}

describe("laneChanges: what changed in a lane", () => {
  it("S-CARD-01: a clone with two commits gives its branch, the commits newest first, each file with its +/− lines and binary files as such", async (ctx) => {
    if (!jail) ctx.skip();
    const { l, first, second } = await twoCommitLane();
    const c = await laneChanges(JAIL, l.clone, l.base);
    expect(c.branch).toBe(l.branch);
    expect(c.base).toBe(l.base);
    expect(c.head).toBe(second);
    expect(c.commits).toEqual([
      { sha: second, subject: "Binary logo, drop old" },
      { sha: first, subject: "Edit app, add notes" },
    ]);
    expect(c.totalCommits).toBe(2);
    expect(c.files).toEqual([
      { path: "app.txt", added: 2, removed: 1, binary: false },
      { path: "logo.bin", added: 0, removed: 0, binary: true },
      { path: "notes.md", added: 3, removed: 0, binary: false },
      { path: "old.txt", added: 0, removed: 2, binary: false },
    ]);
    expect([c.totalFiles, c.added, c.removed]).toEqual([4, 5, 3]);
    expect(c.diff).toContain("+TWO");
    expect(c.diff).toContain("diff --git a/old.txt b/old.txt");
    expect(c.diffTruncated).toBe(false);
    expect(c.diffBytes).toBe(Buffer.byteLength(c.diff));
    // The clone's own record of the project's base (made by the clone) reads the same.
    expect(await laneChanges(JAIL, l.clone, "refs/remotes/origin/main")).toEqual(c);
  });

  it("S-CARD-01: the base merged into the lane is not counted as the lane's work (changes run from the merge base)", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l } = await twoCommitLane();
    write(p.root, "upstream.txt", "from main\n");
    const moved = await commitAll(p.root, "Upstream");
    // The lane takes main in (as updateLaneBase and the agent's turn would).
    await git(l.clone, "fetch", "-q", p.root, "main:refs/remotes/origin/main");
    await git(l.clone, "merge", "-q", "--no-edit", "refs/remotes/origin/main");
    const c = await laneChanges(JAIL, l.clone, "refs/remotes/origin/main");
    expect(c.base).toBe(moved);
    expect(c.files.map((f) => f.path)).not.toContain("upstream.txt");
    expect(c.files.map((f) => f.path)).toContain("app.txt");
  });

  it("S-CARD-02: a long lane is listed up to the limits, and the diff is cut at a line with the cut said", async (ctx) => {
    if (!jail) ctx.skip();
    const { l } = await twoCommitLane();
    for (let i = 0; i < 5; i++) write(l.clone, `gen/file${i}.txt`, `${"line of text\n".repeat(200)}`);
    await commitAll(l.clone, "Generated");
    const c = await laneChanges(JAIL, l.clone, l.base, { commits: 2, files: 3, diffBytes: 1000 });
    expect(c.commits.map((x) => x.subject)).toEqual(["Generated", "Binary logo, drop old"]);
    expect(c.totalCommits).toBe(3);
    expect(c.files.map((f) => f.path)).toEqual(["app.txt", "gen/file0.txt", "gen/file1.txt"]);
    expect(c.totalFiles).toBe(9);
    expect(c.added).toBe(5 + 5 * 200); // the sums cover every file, listed or not
    expect(c.diffTruncated).toBe(true);
    expect(Buffer.byteLength(c.diff)).toBeLessThanOrEqual(1000);
    expect(c.diff.endsWith("\n")).toBe(true);
    expect(c.diffBytes).toBeGreaterThan(5 * 200 * 13);
    // Control: without the limits nothing is cut.
    const whole = await laneChanges(JAIL, l.clone, l.base);
    expect([whole.diffTruncated, whole.files.length, whole.diffBytes]).toEqual([false, 9, c.diffBytes]);
    expect(whole.diff.startsWith(c.diff)).toBe(true);
  });

  it("S-CARD-03: hooks planted in the clone's .git do not run when the changes are read (positive control: plain git runs them)", async (ctx) => {
    if (!jail) ctx.skip();
    const { l } = await twoCommitLane();
    const log = await plant(l.clone, { hooksOnly: true });
    const c = await laneChanges(JAIL, l.clone, l.base);
    expect(c.totalCommits).toBe(2);
    expect(fired(log)).toEqual([]);
    await plainGit(l.clone, "checkout", "-q", "-b", "control");
    expect(fired(log)).toContain("post-checkout");
  });

  it("S-CARD-03: a clone whose git configuration changed since codexpi made it is not read, and its planted command never runs", async (ctx) => {
    if (!jail) ctx.skip();
    const { l } = await twoCommitLane();
    const log = await plant(l.clone); // adds core.fsmonitor to the clone's config: the seal breaks
    await expect(laneChanges(JAIL, l.clone, l.base)).rejects.toThrow(/changed since codexpi made it/);
    expect(fired(log)).toEqual([]);
    await plainGit(l.clone, "status", "--porcelain");
    expect(fired(log)).toContain("fsmonitor"); // control: the plant is live
  });

  it("a base that is not a revision is refused before git sees it as an option", async (ctx) => {
    if (!jail) ctx.skip();
    const { l } = await twoCommitLane();
    await expect(laneChanges(JAIL, l.clone, "--output=/tmp/x")).rejects.toThrow(/not a revision/);
  });
});
