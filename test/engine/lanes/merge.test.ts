/**
 * A lane's merge into the project's checkout (S-CARD-04…07): real repositories, real sealed
 * clones, git in the jail; the orchestration merge's guarantees, and the way back from a conflict.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  conflictFollowUpPrompt,
  laneChanges,
  mergeLane,
  updateLaneBase,
} from "../../../src/engine/lanes/index.js";
import { commitClone } from "../../../src/engine/workspaces/index.js";
import { jailAvailable } from "../../support/jail.js";
import { git } from "../orchestrations/repo.js";
import { commitAll, fired, JAIL, lane, plainGit, plant, project, read, write } from "./lane.js";

let jail = false;
const dirs: string[] = [];
beforeAll(async () => {
  jail = await jailAvailable();
});
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A project and its lane, the lane's agent having changed app.txt's second line and committed. */
async function laneWithWork() {
  const p = await project();
  dirs.push(p.dir);
  const l = await lane(p);
  write(l.clone, "app.txt", "one\nlane\nthree\n");
  const head = await commitClone(JAIL, l.clone, "Turn 1");
  return {
    p,
    l,
    head,
    opts: { checkout: p.root, clone: l.clone, branch: l.branch, base: "main", locale: "en" as const },
  };
}

/** What a person sees of the checkout: its branch, main, the lane's branch if any, status, files. */
async function checkout(root: string, branch: string) {
  return {
    head: await git(root, "symbolic-ref", "HEAD"),
    main: await git(root, "rev-parse", "refs/heads/main"),
    refs: await git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
    lane: await git(root, "branch", "--list", branch),
    status: await git(root, "status", "--porcelain", "--untracked-files=all"),
    merging: fs.existsSync(path.join(root, ".git", "MERGE_HEAD")),
    app: read(root, "app.txt"),
  };
}

const parents = async (root: string, rev: string) =>
  (await git(root, "rev-list", "--parents", "-n", "1", rev)).split(" ").slice(1);

describe("mergeLane: a lane's branch into the project's checkout", () => {
  it("S-CARD-04: a lane on an unmoved base fast-forwards main to the lane's head", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l, head, opts } = await laneWithWork();
    const r = await mergeLane(JAIL, opts);
    expect(r).toEqual({ ok: true, revision: head, how: "fast-forward" });
    expect(await git(p.root, "rev-parse", "main")).toBe(head);
    expect(read(p.root, "app.txt")).toBe("one\nlane\nthree\n");
    expect(await git(p.root, "rev-parse", `refs/heads/${l.branch}`)).toBe(head); // the branch stays
    // Merging again is a success that changes nothing (a retry after a crash).
    expect(await mergeLane(JAIL, opts)).toEqual({ ok: true, revision: head, how: "already-merged" });
  });

  it("S-CARD-04: a base that moved since the lane started gets a merge commit holding both", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, head, opts } = await laneWithWork();
    write(p.root, "other.txt", "main's own work\n");
    const moved = await commitAll(p.root, "Main moved");
    const r = await mergeLane(JAIL, opts);
    expect(r).toMatchObject({ ok: true, how: "merge-commit" });
    const merged = await git(p.root, "rev-parse", "main");
    expect(r.ok && r.revision).toBe(merged);
    expect(await parents(p.root, merged)).toEqual([moved, head]);
    expect(await git(p.root, "log", "-1", "--format=%s", merged)).toBe(
      "Merge codexpi/work-1 into main (codexpi)",
    );
    expect(read(p.root, "app.txt")).toBe("one\nlane\nthree\n");
    expect(read(p.root, "other.txt")).toBe("main's own work\n");
    expect(await git(p.root, "status", "--porcelain")).toBe("");
  });

  it("S-CARD-05: uncommitted changes in the checkout refuse the merge and change nothing, not even a ref (positive control: once committed away, the same merge succeeds)", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l, head, opts } = await laneWithWork();
    write(p.root, "app.txt", "one\ntwo\nthree\nperson's unsaved line\n");
    const before = await checkout(p.root, l.branch);
    const r = await mergeLane(JAIL, opts);
    expect(r).toMatchObject({ ok: false, reason: "main_dirty" });
    expect(!r.ok && r.detail).toContain("app.txt");
    expect(await checkout(p.root, l.branch)).toEqual(before);
    expect(before.lane).toBe("");

    await git(p.root, "checkout", "--", "app.txt");
    expect(await mergeLane(JAIL, opts)).toEqual({ ok: true, revision: head, how: "fast-forward" });
  });

  it("S-CARD-05: a checkout on another branch than the base refuses the merge", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, opts } = await laneWithWork();
    await git(p.root, "checkout", "-q", "-b", "feature");
    expect(await mergeLane(JAIL, opts)).toMatchObject({ ok: false, reason: "main_moved", detail: "feature" });
    expect(await git(p.root, "rev-parse", "main")).toBe(await git(p.root, "rev-parse", "feature"));
  });

  it("S-CARD-06: a conflict leaves the checkout as it was, nothing half-merged, and names the conflicting files", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l, opts } = await laneWithWork();
    write(l.clone, "notes.md", "lane notes\n");
    await commitClone(JAIL, l.clone, "Turn 2");
    write(p.root, "app.txt", "one\nmain\nthree\n");
    write(p.root, "notes.md", "main notes\n");
    await commitAll(p.root, "Main edits the same lines");
    const before = await checkout(p.root, l.branch);
    const r = await mergeLane(JAIL, opts);
    expect(r).toMatchObject({ ok: false, reason: "conflict", files: ["app.txt", "notes.md"] });
    const after = await checkout(p.root, l.branch);
    // Only the lane's branch was brought in; main, HEAD, the index and the files are untouched.
    expect({ ...after, refs: "", lane: "" }).toEqual({ ...before, refs: "", lane: "" });
    expect(after.merging).toBe(false);
    expect(after.status).toBe("");
  });

  it("S-CARD-07: after updateLaneBase the merge of the base is under way in the clone; resolved and committed, the lane merges", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l, opts } = await laneWithWork();
    write(p.root, "app.txt", "one\nmain\nthree\n");
    const moved = await commitAll(p.root, "Main edits the same line");
    const conflict = await mergeLane(JAIL, opts);
    expect(conflict).toMatchObject({ ok: false, reason: "conflict", files: ["app.txt"] });

    const update = await updateLaneBase(JAIL, opts);
    expect(update).toEqual({
      revision: moved,
      ref: "refs/remotes/origin/main",
      merging: true,
      conflicts: ["app.txt"],
    });
    expect(read(l.clone, "app.txt")).toMatch(/<<<<<<< [^\n]*\nlane\n=======\nmain\n>>>>>>> /);
    // The agent resolves the file; the engine's commit after the turn records the merge.
    write(l.clone, "app.txt", "one\nlane and main\nthree\n");
    const resolved = await commitClone(JAIL, l.clone, "Turn 2");
    expect(await parents(l.clone, resolved)).toHaveLength(2);
    // The card after that turn counts from the new base: only the lane's own change.
    const card = await laneChanges(JAIL, l.clone, update.ref);
    expect(card.base).toBe(moved);
    expect(card.files).toEqual([{ path: "app.txt", added: 1, removed: 1, binary: false }]);

    const r = await mergeLane(JAIL, opts);
    expect(r).toEqual({ ok: true, revision: resolved, how: "fast-forward" });
    expect(read(p.root, "app.txt")).toBe("one\nlane and main\nthree\n");
    // Once the lane holds the base, a second update starts nothing.
    expect(await updateLaneBase(JAIL, opts)).toMatchObject({ merging: false, conflicts: [] });
  });

  it("S-CARD-07: a resolution that keeps the lane's side stages nothing, and the merge is still recorded", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l, head, opts } = await laneWithWork();
    write(p.root, "app.txt", "one\nmain\nthree\n");
    const moved = await commitAll(p.root, "Main edits the same line");
    await updateLaneBase(JAIL, opts);
    write(l.clone, "app.txt", "one\nlane\nthree\n");
    const resolved = await commitClone(JAIL, l.clone, "Turn 2");
    expect(await parents(l.clone, resolved)).toEqual([head, moved]);
    expect(fs.existsSync(path.join(l.clone, ".git", "MERGE_HEAD"))).toBe(false);
  });

  it("S-CARD-07: the follow-up asks the agent to resolve the named files of the base's merge, in both languages", () => {
    const en = conflictFollowUpPrompt("en", "main", ["app.txt", "src/a`b.ts"]);
    expect(en).toContain("`main`");
    expect(en).toContain("- `app.txt`");
    expect(en).toContain("- `src/a?b.ts`"); // a file name cannot close its code span
    expect(en).toMatch(/Do not commit/);
    const fr = conflictFollowUpPrompt("fr", "develop", ["app.txt"]);
    expect(fr).toContain("`develop`");
    expect(fr).toContain("- `app.txt`");
    expect(fr).toMatch(/marqueurs de conflit/);
    const many = conflictFollowUpPrompt(
      "en",
      "main",
      Array.from({ length: 60 }, (_, i) => `f${i}`),
    );
    expect(many).toContain("- `f49`");
    expect(many).not.toContain("- `f50`");
    expect(many).toContain("10 more");
  });

  it("S-CARD-03: hooks and an fsmonitor planted in the project and hooks in the clone run during none of this (positive control: plain git runs them)", async (ctx) => {
    if (!jail) ctx.skip();
    const { p, l, opts } = await laneWithWork();
    write(p.root, "app.txt", "one\nmain\nthree\n");
    await commitAll(p.root, "Main edits the same line");
    const inProject = await plant(p.root);
    const inClone = await plant(l.clone, { hooksOnly: true });
    expect(await mergeLane(JAIL, opts)).toMatchObject({ reason: "conflict" });
    await updateLaneBase(JAIL, opts);
    write(l.clone, "app.txt", "one\nresolved\nthree\n");
    await commitClone(JAIL, l.clone, "Turn 2");
    write(p.root, "other.txt", "x\n");
    await commitAll(p.root, "Main moves again"); // (the test's git runs no plant) so the next merge makes a commit
    expect(await mergeLane(JAIL, opts)).toMatchObject({ ok: true, how: "merge-commit" });
    await laneChanges(JAIL, l.clone, "refs/remotes/origin/main");
    expect(fired(inProject)).toEqual([]);
    expect(fired(inClone)).toEqual([]);
    // Positive control: the same kinds of operations with plain git run the plants.
    await plainGit(p.root, "status", "--porcelain");
    await plainGit(p.root, "checkout", "-q", "-b", "control");
    write(l.clone, "more.txt", "y\n");
    await plainGit(l.clone, "add", "more.txt");
    await plainGit(l.clone, "commit", "-q", "-m", "control");
    expect(fired(inProject)).toEqual(expect.arrayContaining(["fsmonitor", "post-checkout"]));
    expect(fired(inClone)).toEqual(expect.arrayContaining(["pre-commit", "post-commit"]));
  });
});
