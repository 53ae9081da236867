import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/engine/codex/appServer/approvalTypes.js";
import { approvalHandler } from "../../src/engine/approvals/waiter.js";
import { recordingSpawner, type RecordingSpawner } from "../support/engine.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

// Approval cards through the real Bolt app and notifier, against the fake Slack. The runner's side
// is played by the test: it calls the worker's ApprovalHandler for a turn that stays running (a
// stand-in worker process), as the app-server runner does when Codex asks.

type Button = { type: string; action_id: string; value?: string };
const buttonsOf = (blocks: unknown[] | undefined): Button[] =>
  ((blocks ?? []) as Array<{ elements?: Button[] }>)
    .flatMap((b) => b.elements ?? [])
    .filter((e) => e.type === "button");

const command = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  kind: "command",
  threadId: "thread-1",
  turnId: "turn-1",
  itemId: "item-1",
  approvalId: null,
  command: "npm install --save left-pad",
  cwd: "/srv/demo",
  reason: "needs the network to fetch packages",
  diff: null,
  files: [],
  ...over,
});

describe("approvals in Slack", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  let spawner: RecordingSpawner;
  const aborts: AbortController[] = [];
  afterEach(async () => {
    for (const a of aborts.splice(0)) a.abort();
    spawner?.killAll();
    await bot?.close();
  });

  /** OWNER's conversation in `demo`, its turn running (a stand-in worker), and its thread's root in C1. */
  async function runningConversation() {
    spawner = recordingSpawner();
    bot = await slackBot({ spawner: () => spawner });
    await bot.command("ask demo installe left-pad");
    const root = await eventually(
      () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      30_000,
      "thread root",
    );
    const item = await eventually(
      () => bot.db.selectFrom("prompt_queue").selectAll().where("status", "=", "running").executeTakeFirst(),
      15_000,
      "running item",
    );
    const turn = { conversationId: item.conversation_id, queueId: item.id, attempt: item.attempt };
    const ask = (request: ApprovalRequest) => {
      const abort = new AbortController();
      aborts.push(abort);
      return approvalHandler(bot.bot.engine, turn)(request, abort.signal);
    };
    return { root, turn, ask };
  }

  const card = (rootTs: string, kind = "approval.approve") =>
    eventually(
      () =>
        bot.slack
          .thread("C1", rootTs)
          .find((m) => m.ts !== rootTs && JSON.stringify(m.blocks ?? []).includes(kind)),
      15_000,
      "approval card",
    );

  it("a request becomes a card in the thread (command, directory, reason, four buttons); a non-owner's click does nothing, the owner's Approve reaches the runner and the card shows who answered", async () => {
    const { root, ask } = await runningConversation();
    const decision = ask(command());
    const message = await card(root.ts);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("```npm install --save left-pad```");
    expect(text).toContain("/srv/demo");
    expect(text).toContain("needs the network to fetch packages");
    const buttons = buttonsOf(message.blocks);
    expect(buttons.map((b) => b.action_id)).toEqual([
      "approval.approve",
      "approval.approve_session",
      "approval.deny",
      "approval.stop",
    ]);
    const approval = await bot.db.selectFrom("approvals").selectAll().executeTakeFirstOrThrow();
    expect(new Set(buttons.map((b) => b.value))).toEqual(new Set([approval.id]));
    // The person is told by DM that an approval awaits them (decision notifications are on by default).
    await eventually(
      () => bot.slack.messages(bot.slack.dmChannel(OWNER)).find((m) => m.text.includes("left-pad")),
      15_000,
      "approval DM",
    );

    const refused = await bot.click("approval.approve", approval.id, message.ts, OTHER);
    expect((await bot.response(refused.responseId)).text).toMatch(/introuvable/i);
    expect((await bot.db.selectFrom("approvals").select("status").executeTakeFirstOrThrow()).status).toBe(
      "pending",
    );

    const clicked = Date.now();
    const click = await bot.click("approval.approve", approval.id, message.ts, OWNER);
    expect(click.status).toBe(200);
    expect(await decision).toBe("accept");
    expect(Date.now() - clicked).toBeLessThan(1_500); // the click's HTTP round trip included
    const closed = await eventually(
      () => {
        const m = bot.slack.messages("C1").find((x) => x.ts === message.ts);
        return m && buttonsOf(m.blocks).length === 0 ? m : undefined;
      },
      15_000,
      "card closed",
    );
    expect(JSON.stringify(closed.blocks)).toContain(`<@${OWNER}>`);
    expect(JSON.stringify(closed.blocks)).toContain("<!date^");
    const again = await bot.click("approval.deny", approval.id, message.ts, ADMIN);
    expect((await bot.response(again.responseId)).text).toMatch(/déjà/);
  });

  it("a file change shows its diff in the card when short, and as a file in the thread when long", async () => {
    const { root, ask } = await runningConversation();
    const short = "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-old\n+new\n";
    void ask(
      command({ kind: "file_change", itemId: "patch-1", command: null, diff: short, files: ["README.md"] }),
    );
    const first = await card(root.ts);
    expect(JSON.stringify(first.blocks)).toContain("+new");
    expect(JSON.stringify(first.blocks)).toContain("README.md");

    const long = `--- a/big.txt\n+++ b/big.txt\n@@ -1,400 +1,400 @@\n${Array.from({ length: 400 }, (_, i) => `+line ${i} of the new file`).join("\n")}\n`;
    void ask(
      command({ kind: "file_change", itemId: "patch-2", command: null, diff: long, files: ["big.txt"] }),
    );
    const file = await eventually(
      () => bot.slack.files.find((f) => f.completed && f.content.toString("utf8").includes("line 399")),
      15_000,
      "diff file",
    );
    expect(file.thread_ts).toBe(root.ts);
    const second = await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find((m) => m.ts !== first.ts && JSON.stringify(m.blocks ?? []).includes("approval.approve")),
      15_000,
      "second card",
    );
    expect(JSON.stringify(second.blocks)).not.toContain("line 399");
  });

  it("/codex project set --approvals is for admins: the owner is refused, an admin's change is stored and listed", async () => {
    bot = await slackBot();
    const refused = await bot.command("project set demo --approvals on-request", OWNER);
    expect(JSON.stringify(refused.json ?? (await bot.response(refused.responseId)))).toMatch(/admin/i);
    expect(
      (await bot.db.selectFrom("projects").select("approval_mode").executeTakeFirstOrThrow()).approval_mode,
    ).toBe("never");
    await bot.command("project set demo --approvals on-request", ADMIN);
    await eventually(
      async () =>
        (await bot.db.selectFrom("projects").select("approval_mode").executeTakeFirstOrThrow())
          .approval_mode === "on-request",
      15_000,
      "mode stored",
    );
    const listed = await bot.command("projects", ADMIN);
    expect(JSON.stringify(listed.json ?? (await bot.response(listed.responseId)))).toContain("sur demande");
  });

  it("an unanswered request expires as cancel and its card says so", async () => {
    spawner = recordingSpawner();
    bot = await slackBot({ spawner: () => spawner, env: { CODEXPI_APPROVAL_TTL: "1" } });
    await bot.command("ask demo installe left-pad");
    const root = await eventually(() => bot.slack.messages("C1")[0], 30_000, "thread root");
    const item = await eventually(
      () => bot.db.selectFrom("prompt_queue").selectAll().where("status", "=", "running").executeTakeFirst(),
      15_000,
      "running item",
    );
    const abort = new AbortController();
    aborts.push(abort);
    const decision = approvalHandler(bot.bot.engine, {
      conversationId: item.conversation_id,
      queueId: item.id,
      attempt: item.attempt,
    })(command(), abort.signal);
    expect(await decision).toBe("cancel");
    await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find(
            (m) =>
              m.updates > 0 &&
              /Expiré/.test(JSON.stringify(m.blocks ?? [])) &&
              buttonsOf(m.blocks).length === 0,
          ),
      15_000,
      "expired card",
    );
  });
});
