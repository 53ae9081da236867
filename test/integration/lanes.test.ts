import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../src/engine/api/index.js";
import type { Actor } from "../../src/engine/api/model.js";
import { enqueue, startConversation } from "../../src/engine/conversations/conversations.js";
import { laneOf } from "../../src/engine/lanes/index.js";
import type { Project } from "../../src/engine/schema.js";
import { processStartTime } from "../../src/engine/system/processes.js";
import { codexEngine, finished, until } from "../support/codexEngine.js";
import { inputText, type FakeStep, type ResponsesRequestBody } from "../support/fakeModel.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

// Issue 18, item 2, end to end: real engine, real `codexpi worker` processes (dist/), the real
// Codex binary against the fake model on 127.0.0.1, real git. Each prompt carries a marker; the
// fake model answers the newest marker's first request with a shell command (which writes a file
// in the agent's working directory) and its follow-up with a text. Each turn's span is timed from
// the model's side, as in directWorkspace.test.ts.

const OWNER: Actor = { userId: "UOWNER", isAdmin: false };
const STRANGER: Actor = { userId: "USTRANGER", isAdmin: false };

/** What the agent runs for each marker (in its working directory, through `sh -c`). */
const SCRIPTS: Record<string, string> = {
  "LANE-ALPHA-1101": "echo alpha > alpha.txt; sleep 3",
  "LANE-BRAVO-2202": "echo bravo > bravo.txt; sleep 3",
  "LANE-AGAIN-3303": "echo again > again.txt",
  "LANE-KILLED-4404": "echo partial > partial.txt; sleep 120",
  "LANE-NEXT-5505": "echo next > next.txt",
};

function laneModel() {
  const seen = new Map<string, number[]>();
  const itemText = (i: unknown) => inputText({ input: [i] });
  const respond = (body: ResponsesRequestBody): FakeStep => {
    const items = body.input ?? [];
    const text = inputText(body);
    // The newest marker is the one that appears last (earlier turns come first in the history).
    const marker = Object.keys(SCRIPTS)
      .filter((m) => text.includes(m))
      .sort((a, b) => text.lastIndexOf(a) - text.lastIndexOf(b))
      .pop();
    if (!marker) return { kind: "text", text: "rien" };
    seen.set(marker, [...(seen.get(marker) ?? []), Date.now()]);
    const asked = items.findLastIndex((i) => itemText(i).includes(marker));
    const answered = items.findLastIndex(
      (i) => typeof i === "object" && i !== null && (i as { type?: string }).type === "function_call_output",
    );
    return answered > asked
      ? { kind: "text", text: `fait ${marker}` }
      : { kind: "shell", command: ["sh", "-c", SCRIPTS[marker]!] };
  };
  const span = (m: string) => {
    const times = seen.get(m) ?? [];
    return { start: Math.min(...times), end: Math.max(...times), requests: times.length };
  };
  return { respond, span };
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  Math.min(a.end, b.end) - Math.max(a.start, b.start);

describe("lanes end to end (real workers, real Codex)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  /** An engine whose project `lanes` is a branch-mode repository on `main` holding app.txt. */
  async function branchEngine(): Promise<{
    e: NonNullable<typeof env>;
    project: Project;
    root: string;
    model: ReturnType<typeof laneModel>;
  }> {
    isolateGit();
    const model = laneModel();
    const e = await codexEngine({ maxConcurrent: 4, fakeModel: { respond: model.respond } });
    env = e;
    const root = path.join(e.dir, "lanes");
    fs.mkdirSync(root);
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    const project = await e.addProject({
      name: "lanes",
      path: root,
      ownerId: "UOWNER",
      workspaceMode: "branch",
    });
    return { e, project, root, model };
  }

  /** The files a branch adds over its lane's base, read in the lane's clone. */
  const added = async (lane: { path: string; branch: string; base_commit: string }) =>
    (await git(lane.path, "diff", "--name-only", `${lane.base_commit}..${lane.branch}`))
      .split("\n")
      .filter(Boolean);

  it("S-LANE-02, S-LANE-03: two conversations of one branch project run at the same time, each in its lane on its branch; a follow-up stays in its lane; discard is its owner's", async () => {
    const { e, project, root, model } = await branchEngine();
    const a = await startConversation(e.db, e.clock, project, "LANE-ALPHA-1101 écris alpha", "UOWNER", {
      title: "Alpha",
    });
    const b = await startConversation(e.db, e.clock, project, "LANE-BRAVO-2202 écris bravo", "UOWNER", {
      title: "Bravo",
    });
    const claimed = await e.engine.dispatch();
    expect(claimed.started).toHaveLength(2); // the direct-mode checkout rule does not hold lanes
    for (const item of [a.item, b.item])
      expect(await finished(e.db, item.id, 90_000)).toMatchObject({ status: "done" });
    const [sa, sb] = [model.span("LANE-ALPHA-1101"), model.span("LANE-BRAVO-2202")];
    for (const s of [sa, sb]) expect(s.requests).toBeGreaterThanOrEqual(2);
    expect(overlap(sa, sb)).toBeGreaterThan(1000); // both slept 3 s, side by side

    const la = (await laneOf(e.db, a.conversation.id))!;
    const lb = (await laneOf(e.db, b.conversation.id))!;
    expect(la.branch).not.toBe(lb.branch);
    expect(la.branch).toMatch(/^codexpi\/alpha-/);
    expect(la.path).not.toBe(lb.path);
    expect(await added(la)).toEqual(["alpha.txt"]);
    expect(await added(lb)).toEqual(["bravo.txt"]);
    expect(fs.existsSync(path.join(la.path, "bravo.txt"))).toBe(false);
    expect(fs.existsSync(path.join(lb.path, "alpha.txt"))).toBe(false);
    // The project's checkout holds neither file, nor any lane branch.
    expect(fs.existsSync(path.join(root, "alpha.txt"))).toBe(false);
    expect(fs.existsSync(path.join(root, "bravo.txt"))).toBe(false);
    expect(await git(root, "status", "--porcelain")).toBe("");
    expect(await git(root, "branch", "--list", "codexpi/*")).toBe("");

    // A follow-up runs in the same lane, on the same branch, after the first turn's commit.
    const again = await enqueue(e.db, e.clock, a.conversation.id, "LANE-AGAIN-3303 encore");
    await e.engine.dispatch();
    expect(await finished(e.db, again.id, 60_000)).toMatchObject({ status: "done" });
    const la2 = (await laneOf(e.db, a.conversation.id))!;
    expect([la2.path, la2.branch]).toEqual([la.path, la.branch]);
    expect((await added(la2)).sort()).toEqual(["again.txt", "alpha.txt"]);
    expect(await git(la.path, "rev-list", "--count", `${la.base_commit}..${la.branch}`)).toBe("2");

    // Discard: a stranger is refused and nothing changes; the conversation's person removes it.
    const lanes = createEngineApi(e.engine).lanes;
    await expect(lanes.discard(STRANGER, b.conversation.id)).rejects.toMatchObject({ code: "not_found" });
    expect(fs.existsSync(lb.path)).toBe(true);
    await expect(lanes.discard(OWNER, b.conversation.id)).resolves.toMatchObject({ status: "discarded" });
    expect(fs.existsSync(lb.path)).toBe(false);
    expect(fs.existsSync(la.path)).toBe(true);
  }, 180_000);

  it("S-LANE-07: a worker SIGKILLed mid-turn leaves its lane usable: the next turn runs there and commits both turns' changes", async () => {
    const { e, project } = await branchEngine();
    const { conversation, item } = await startConversation(
      e.db,
      e.clock,
      project,
      "LANE-KILLED-4404 commence",
      "UOWNER",
      { title: "Killed" },
    );
    await e.engine.dispatch();
    const lane = await until(
      async () => {
        const l = await laneOf(e.db, conversation.id);
        return l && fs.existsSync(path.join(l.path, "partial.txt")) ? l : undefined;
      },
      60_000,
      "the agent to write in its lane",
    );
    const running = await e.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    process.kill(running.worker_pid!, "SIGKILL");
    await until(async () => processStartTime(running.worker_pid!) === null, 10_000, "worker to die");
    await e.engine.tick();
    expect(await finished(e.db, item.id)).toMatchObject({ status: "failed", error_code: "interrupted" });

    const next = await enqueue(e.db, e.clock, conversation.id, "LANE-NEXT-5505 continue");
    await e.engine.dispatch();
    expect(await finished(e.db, next.id, 60_000)).toMatchObject({ status: "done" });
    const after = (await laneOf(e.db, conversation.id))!;
    expect([after.path, after.branch, after.status]).toEqual([lane.path, lane.branch, "active"]);
    expect((await added(after)).sort()).toEqual(["next.txt", "partial.txt"]);
    expect(await git(after.path, "status", "--porcelain")).toBe("");
  }, 180_000);
});
