import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addProject } from "../../src/engine/projects/index.js";
import { laneOf } from "../../src/engine/lanes/index.js";
import { scriptedRespond } from "../support/scriptedModel.js";
import { serveProcess } from "../support/serveProcess.js";
import { OWNER } from "../support/slackBot.js";
import { until } from "../support/codexEngine.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

// Issue 18: a SIGKILL of `serve` while an agent works in its lane. The real CLI's `serve` (a child
// process), its detached real worker and the real Codex binary against the fake model, real git.
// The worker outlives the bot, the turn's work is committed on the lane's branch, and after the
// restart the lane takes the next turn (a reply in the thread) in the same clone and branch.

const SCRIPTS: Record<string, string> = {
  "KILL-FIRST": "echo one > one.txt; sleep 6",
  "KILL-AFTER": "echo two > two.txt",
};

const respond = scriptedRespond(SCRIPTS);

describe("a lane across a SIGKILL of serve (real CLI, real Codex)", () => {
  let s: Awaited<ReturnType<typeof serveProcess>> | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it("S-LANE-08: serve killed mid-turn: the worker finishes and commits in the lane; after the restart a reply runs in the same lane", async () => {
    isolateGit();
    s = await serveProcess({ model: { respond } });
    const srv = s;
    const root = path.join(path.dirname(srv.dataDir), "repo");
    fs.mkdirSync(root);
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    await addProject(
      srv.db,
      { now: () => Date.now() },
      { name: "repo", path: root, ownerId: OWNER, workspaceMode: "branch" },
    );
    await srv.start();
    await srv.command("ask repo KILL-FIRST write one", OWNER);
    const item = await until(
      async () =>
        srv.db
          .selectFrom("prompt_queue")
          .select(["id", "conversation_id"])
          .where("status", "=", "running")
          .where("codex_pid", "is not", null)
          .executeTakeFirst(),
      30_000,
    );
    await srv.kill(); // SIGKILL: no shutdown of any kind; the detached worker keeps going
    const first = await until(
      async () =>
        srv.db
          .selectFrom("prompt_queue")
          .select("status")
          .where("id", "=", item.id)
          .where("status", "in", ["done", "failed", "cancelled"])
          .executeTakeFirst(),
      60_000,
    );
    expect(first.status).toBe("done");
    const lane = (await laneOf(srv.db, item.conversation_id))!;
    expect(lane.status).toBe("active");
    expect(await git(lane.path, "show", `${lane.branch}:one.txt`)).toBe("one");
    expect(fs.existsSync(path.join(root, "one.txt"))).toBe(false);

    await srv.forgetLease();
    await srv.start();
    const address = await until(
      async () =>
        srv.db
          .selectFrom("slack_addresses")
          .select(["channel_id", "thread_ts"])
          .where("subject_id", "=", item.conversation_id)
          // The address is recorded with the conversation, its thread once the root is posted:
          // if serve died before that, the restarted one posts it. A reply needs the thread (a
          // channel message without one is no follow-up: this test timed out on that in CI).
          .where("thread_ts", "is not", null)
          .executeTakeFirst(),
      30_000,
    );
    const sent = await srv.event({
      type: "message",
      channel: address.channel_id,
      user: OWNER,
      text: "KILL-AFTER write two",
      ts: `${Math.floor(Date.now() / 1000)}.000200`,
      thread_ts: address.thread_ts!,
    });
    expect(sent.status).toBe(200);
    // Any end, not only done: a follow-up that failed says why here rather than as a time-out,
    // and one that never ended shows where it stands.
    const queue = () =>
      srv.db
        .selectFrom("prompt_queue")
        .select(["id", "status", "error_code", "error", "worker_pid"])
        .where("conversation_id", "=", item.conversation_id)
        .execute();
    const second = await until(
      async () =>
        (await queue()).find((q) => q.id !== item.id && ["done", "failed", "cancelled"].includes(q.status)),
      60_000,
    ).catch(async (err: Error) => {
      const posted = srv.slack.messages().map((m) => m.text.slice(0, 200));
      const said = `${srv.stderr.join("").slice(-3000)}; Slack has ${JSON.stringify(posted.slice(-8))}`;
      throw new Error(
        `${err.message}: the conversation's queue is ${JSON.stringify(await queue())}; serve said: ${said}`,
      );
    });
    expect(second).toMatchObject({ status: "done" });
    const after = (await laneOf(srv.db, item.conversation_id))!;
    expect(after.path).toBe(lane.path);
    expect(after.branch).toBe(lane.branch);
    expect(await git(after.path, "show", `${after.branch}:one.txt`)).toBe("one");
    expect(await git(after.path, "show", `${after.branch}:two.txt`)).toBe("two");
  }, 180_000);
});
