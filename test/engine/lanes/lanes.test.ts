import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import type { Actor } from "../../../src/engine/api/model.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { ensureLane, laneAfterTurn, laneOf, lanePath, sweepLanes } from "../../../src/engine/lanes/index.js";
import type { Project } from "../../../src/engine/schema.js";
import { testEngine } from "../../support/engine.js";
import { git, isolateGit } from "../orchestrations/repo.js";

// Issue 18, item 2, at the engine's level (real git, real jail, real database; no agent): a
// branch-mode conversation's lane is made once, holds its own branch, takes a turn's changes as a
// commit, survives a creation cut short, is discarded only by those who may, and expires after the
// retention period unless its conversation is busy. The end-to-end test with real Codex workers is
// test/integration/lanes.test.ts.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const STRANGER: Actor = { userId: "USTRANGER", isAdmin: false };
const DAY = 24 * 3600_000;

describe("lanes", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  /** An engine with a branch-mode project over a repository on `main` holding app.txt. */
  async function branchProject(): Promise<{ e: NonNullable<typeof env>; project: Project; root: string }> {
    isolateGit();
    const e = await testEngine();
    env = e;
    const root = path.join(e.dir, "repo");
    fs.mkdirSync(root);
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    const project = await e.addProject({
      name: "repo",
      path: root,
      ownerId: "UOWNER",
      workspaceMode: "branch",
    });
    return { e, project, root };
  }

  const finishAll = async (e: NonNullable<typeof env>) =>
    e.db.updateTable("prompt_queue").set({ status: "done" }).execute();

  it("S-LANE-01: the first turn makes the lane on codexpi/<title>-<id> at the project's branch; later turns reuse it; a turn's change is committed there only", async () => {
    const { e, project, root } = await branchProject();
    const { conversation } = await startConversation(e.db, e.clock, project, "Ajoute un fichier", "UOWNER", {
      title: "Ajoute un fichier README",
    });
    const base = await git(root, "rev-parse", "HEAD");
    const dir = await ensureLane(e.engine, { conversation, project });
    expect(dir).toBe(lanePath(e.config.dataDir, project.id, conversation.id));
    const lane = await laneOf(e.db, conversation.id);
    expect(lane).toMatchObject({
      status: "active",
      base_branch: "main",
      base_commit: base,
      branch: `codexpi/ajoute-un-fichier-readme-${conversation.id.slice(0, 8).toLowerCase()}`,
    });
    expect(await git(dir, "symbolic-ref", "--short", "HEAD")).toBe(lane!.branch);
    // A turn that changed nothing makes no commit (positive control below: one that did, does).
    expect(await laneAfterTurn(e.engine, conversation)).toMatchObject({ changed: false, revision: base });
    fs.writeFileSync(path.join(dir, "new.txt"), "from the agent\n");
    const after = await laneAfterTurn(e.engine, conversation);
    expect(after).toMatchObject({ changed: true, branch: lane!.branch });
    expect(await git(dir, "log", "--format=%s", "-1")).toContain("Ajoute un fichier README");
    expect(await git(dir, "diff", "--name-only", `${base}..${lane!.branch}`)).toBe("new.txt");
    // The project's checkout and its branches are untouched.
    expect(fs.existsSync(path.join(root, "new.txt"))).toBe(false);
    expect(await git(root, "rev-parse", "HEAD")).toBe(base);
    expect(await git(root, "branch", "--list", "codexpi/*")).toBe("");
    // The next turn works in the same lane, with the commit.
    e.clock.advance(1000);
    expect(await ensureLane(e.engine, { conversation, project })).toBe(dir);
    expect(await git(dir, "rev-parse", "HEAD")).toBe((after as { revision: string }).revision);
    const view = await createEngineApi(e.engine).lanes.ofConversation(OWNER, conversation.id);
    expect(view).toMatchObject({
      branch: lane!.branch,
      baseBranch: "main",
      baseCommit: base,
      status: "active",
    });
    expect(JSON.stringify(view)).not.toContain(e.config.dataDir); // no path crosses the API
    await expect(
      createEngineApi(e.engine).lanes.ofConversation(STRANGER, conversation.id),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("S-LANE-04: a creation cut short is finished by the retry: a sealed clone without its row is reused, a half-made one made again", async () => {
    const { e, project, root } = await branchProject();
    const { conversation } = await startConversation(e.db, e.clock, project, "t", "UOWNER", { title: "Cut" });
    const dir = await ensureLane(e.engine, { conversation, project });
    fs.writeFileSync(path.join(dir, "kept.txt"), "kept\n");
    // Killed after the clone, before the row: the retry reuses the clone (and what it holds).
    await e.db.deleteFrom("lanes").execute();
    await git(root, "commit", "-q", "--allow-empty", "-m", "moved on");
    expect(await ensureLane(e.engine, { conversation, project })).toBe(dir);
    expect(fs.readFileSync(path.join(dir, "kept.txt"), "utf8")).toBe("kept\n");
    const row = await laneOf(e.db, conversation.id);
    expect(row?.base_commit).toBe(await git(root, "rev-parse", "HEAD~1")); // what the clone was made at
    // Killed mid-clone (no seal yet): the retry makes it again.
    await e.db.deleteFrom("lanes").execute();
    fs.rmSync(`${dir}.seal`);
    await ensureLane(e.engine, { conversation, project });
    expect(fs.existsSync(`${dir}.seal`)).toBe(true);
    expect(fs.existsSync(path.join(dir, "kept.txt"))).toBe(false);
    expect(await git(dir, "symbolic-ref", "--short", "HEAD")).toBe(row?.branch);
  });

  it("S-LANE-05: discard: a stranger and a bystander are refused and nothing changes; the owner discards, the clone and its seal go", async () => {
    const { e, project } = await branchProject();
    const { conversation } = await startConversation(e.db, e.clock, project, "t", "UOWNER", {
      title: "Discard",
    });
    const dir = await ensureLane(e.engine, { conversation, project });
    const lanes = createEngineApi(e.engine).lanes;
    // Busy (its item is queued): refused even for its person.
    await expect(lanes.discard(OWNER, conversation.id)).rejects.toMatchObject({ reason: "lane_busy" });
    await finishAll(e);
    await expect(lanes.discard(STRANGER, conversation.id)).rejects.toMatchObject({ code: "not_found" });
    await e.db.updateTable("projects").set({ visibility: "channel", channel_id: "C1" }).execute();
    const reader: Actor = { userId: "UREADER", isAdmin: false, channels: ["C1"] };
    await expect(lanes.discard(reader, conversation.id)).rejects.toMatchObject({ code: "forbidden" });
    expect(fs.existsSync(dir)).toBe(true);
    expect((await laneOf(e.db, conversation.id))?.status).toBe("active");
    await expect(lanes.discard(OWNER, conversation.id)).resolves.toMatchObject({ status: "discarded" });
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(`${dir}.seal`)).toBe(false);
    expect((await laneOf(e.db, conversation.id))?.finished_at).toBe(e.clock.now());
  });

  it("S-LANE-06: retention: an old idle lane expires; an old lane whose agent waits for a decision, and a recent one, stay", async () => {
    const { e, project } = await branchProject();
    const start = async (title: string) => {
      const { conversation, item } = await startConversation(e.db, e.clock, project, "t", "UOWNER", {
        title,
      });
      return { conversation, item, dir: await ensureLane(e.engine, { conversation, project }) };
    };
    const idle = await start("Idle");
    const waiting = await start("Waiting");
    await finishAll(e);
    await e.db
      .insertInto("decisions")
      .values({
        id: "d1",
        conversation_id: waiting.conversation.id,
        queue_id: waiting.item.id,
        user_id: "UOWNER",
        title: "t",
        question: "q",
        options: "[]",
        allow_multiple: 0,
        allow_custom: 0,
        status: "OPEN",
        answer: null,
        answered_by: null,
        response_queue_id: null,
        created_at: e.clock.now(),
        answered_at: null,
      })
      .execute();
    e.clock.advance(15 * DAY);
    const recent = await start("Recent");
    await finishAll(e);
    expect(await sweepLanes(e.engine)).toBe(1);
    expect(fs.existsSync(idle.dir)).toBe(false);
    expect(fs.existsSync(`${idle.dir}.seal`)).toBe(false);
    expect((await laneOf(e.db, idle.conversation.id))?.status).toBe("expired");
    expect(fs.existsSync(waiting.dir)).toBe(true);
    expect((await laneOf(e.db, waiting.conversation.id))?.status).toBe("active");
    expect(fs.existsSync(recent.dir)).toBe(true);
    // An expired lane's conversation that goes on gets a new lane from the project's branch.
    expect(await ensureLane(e.engine, { conversation: idle.conversation, project })).toBe(idle.dir);
    expect((await laneOf(e.db, idle.conversation.id))?.status).toBe("active");
  });
});
