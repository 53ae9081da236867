import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { functionCallOutputs, type FakeStep } from "../support/fakeModel.js";
import { messageEvent } from "../support/slackRequests.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

// Approvals end to end: the real Bolt app and notifier, real workers running the real Codex
// binary through its app-server (a project with approvals on request), the fake model asking for
// escalations, and people clicking the card's buttons in the fake Slack.

type Button = { type: string; action_id: string; value?: string };
const buttonsOf = (blocks: unknown[] | undefined): Button[] =>
  ((blocks ?? []) as Array<{ elements?: Button[] }>)
    .flatMap((b) => b.elements ?? [])
    .filter((e) => e.type === "button");

/** A shell call the model wants outside the sandbox (Codex asks before running it). */
const escalated = (script: string): FakeStep => ({
  kind: "shell",
  command: ["sh", "-c", script],
  extraArgs: { sandbox_permissions: "require_escalated", justification: "needs the network" },
});

describe("approvals end to end", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  afterEach(async () => bot?.close());

  const rootIn = () => bot.slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);

  async function onRequestBot(env: Record<string, string> = {}) {
    bot = await slackBot({ env });
    await bot.db.updateTable("projects").set({ approval_mode: "on-request" }).execute();
  }

  /** Asks `demo` something; answers the thread's root and the n-th approval card in it. */
  async function askAndCard(prompt: string, n = 1) {
    await bot.command(`ask demo ${prompt}`);
    const root = await eventually(() => rootIn()[0], 30_000, "root");
    return { root, card: await cardIn(root.ts, n) };
  }

  const cardIn = (rootTs: string, n: number) =>
    eventually(
      () =>
        bot.slack
          .thread("C1", rootTs)
          .filter((m) => m.ts !== rootTs && JSON.stringify(m.blocks ?? []).includes("approval.approve"))[
          n - 1
        ],
      60_000,
      `approval card ${n}`,
    );

  const answerIn = (rootTs: string, text: string) =>
    eventually(() => bot.slack.thread("C1", rootTs).find((m) => m.text.includes(text)), 60_000, text);

  const closedCard = (ts: string) =>
    eventually(
      () => {
        const m = bot.slack.messages("C1").find((x) => x.ts === ts);
        return m && m.updates > 0 && buttonsOf(m.blocks).length === 0 ? m : undefined;
      },
      30_000,
      "card closed",
    );

  const approvalId = (card: { blocks?: unknown[] }) => buttonsOf(card.blocks)[0]?.value ?? "";

  it("an escalated command asks; a non-owner's click does nothing; Approve runs it and the agent goes on", async () => {
    await onRequestBot();
    bot.model.enqueue(escalated("echo APPROVED-RAN-$((40+2))"), { kind: "text", text: "Installé 7301." });
    const { root, card } = await askAndCard("installe left-pad");
    expect(JSON.stringify(card.blocks)).toContain("APPROVED-RAN-");
    expect(JSON.stringify(card.blocks)).toContain("needs the network");

    const refused = await bot.click("approval.approve", approvalId(card), card.ts, OTHER);
    expect((await bot.response(refused.responseId)).text).toMatch(/introuvable/i);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(bot.model.requests).toHaveLength(1); // still waiting: the command did not run

    await bot.click("approval.approve", approvalId(card), card.ts, OWNER);
    await answerIn(root.ts, "Installé 7301.");
    expect(JSON.stringify(functionCallOutputs(bot.model.requests[1]!))).toContain("APPROVED-RAN-42");
    const closed = await closedCard(card.ts);
    expect(JSON.stringify(closed.blocks)).toContain(`<@${OWNER}>`);
  });

  it("Deny refuses the command: it does not run and the agent is told", async () => {
    await onRequestBot();
    bot.model.enqueue(escalated("echo DENIED-RAN-$((40+2))"), { kind: "text", text: "Compris 7302." });
    const { root, card } = await askAndCard("installe left-pad");
    await bot.click("approval.deny", approvalId(card), card.ts, ADMIN);
    await answerIn(root.ts, "Compris 7302.");
    const told = JSON.stringify(functionCallOutputs(bot.model.requests[1]!));
    expect(told).not.toContain("DENIED-RAN-42");
    expect(told).toMatch(/reject|declin|denied|not approved/i);
    expect(JSON.stringify((await closedCard(card.ts)).blocks)).toContain("Refusé");
  });

  it("Approve for this session stops asking for the same command", async () => {
    await onRequestBot();
    const same = "echo SESSION-RAN-$((40+2))";
    bot.model.enqueue(escalated(same), escalated(same), { kind: "text", text: "Deux fois 7303." });
    const { root, card } = await askAndCard("installe deux fois");
    await bot.click("approval.approve_session", approvalId(card), card.ts, OWNER);
    await answerIn(root.ts, "Deux fois 7303.");
    expect(JSON.stringify(functionCallOutputs(bot.model.requests[1]!))).toContain("SESSION-RAN-42");
    expect(JSON.stringify(functionCallOutputs(bot.model.requests[2]!))).toContain("SESSION-RAN-42");
    expect(await bot.db.selectFrom("approvals").select(["status"]).execute()).toEqual([
      { status: "approved_session" },
    ]);
  });

  it("Stop on the card stops the conversation: the command never runs, the turn ends cancelled, no incident", async () => {
    await onRequestBot();
    bot.model.enqueue(escalated("echo STOPPED-RAN-$((40+2))"), { kind: "text", text: "Jamais 7307." });
    const { card } = await askAndCard("installe left-pad");
    await bot.click("approval.stop", approvalId(card), card.ts, OWNER);
    const item = await eventually(
      () =>
        bot.db
          .selectFrom("prompt_queue")
          .select(["status", "error_code"])
          .where("status", "in", ["done", "failed", "cancelled"])
          .executeTakeFirst(),
      60_000,
      "turn over",
    );
    expect(item).toEqual({ status: "cancelled", error_code: "cancelled" });
    expect(await bot.db.selectFrom("incidents").select("id").execute()).toEqual([]);
    expect(JSON.stringify(bot.model.requests.flatMap((r) => functionCallOutputs(r)))).not.toContain(
      "STOPPED-RAN-42",
    );
    expect(JSON.stringify((await closedCard(card.ts)).blocks)).toContain("Arrêté");
  });

  it("an unanswered request expires as cancel: the command never runs and the card says so", async () => {
    await onRequestBot({ CODEXPI_APPROVAL_TTL: "2" });
    bot.model.enqueue(escalated("echo EXPIRED-RAN-$((40+2))"), { kind: "text", text: "Tant pis 7304." });
    const { card } = await askAndCard("installe left-pad");
    const closed = await closedCard(card.ts);
    expect(JSON.stringify(closed.blocks)).toContain("Expiré");
    await eventually(
      async () =>
        (await bot.db.selectFrom("prompt_queue").select("status").execute()).every(
          (i) => i.status !== "running",
        ),
      60_000,
      "turn over",
    );
    const outputs = bot.model.requests.flatMap((r) => functionCallOutputs(r));
    expect(JSON.stringify(outputs)).not.toContain("EXPIRED-RAN-42");
    expect((await bot.db.selectFrom("approvals").select("status").executeTakeFirstOrThrow()).status).toBe(
      "expired",
    );
  });

  it("a file change outside the project shows its diff in the card", async () => {
    await onRequestBot();
    const target = path.join(bot.config.dataDir, "..", "outside-notes.txt");
    bot.model.enqueue(
      {
        kind: "custom",
        name: "apply_patch",
        input: `*** Begin Patch\n*** Add File: ${target}\n+PATCHED-LINE-7305\n*** End Patch\n`,
      },
      { kind: "text", text: "Patché 7305." },
    );
    const { root, card } = await askAndCard("écris une note");
    expect(JSON.stringify(card.blocks)).toContain("PATCHED-LINE-7305");
    expect(JSON.stringify(card.blocks)).toContain("outside-notes.txt");
    await bot.click("approval.approve", approvalId(card), card.ts, OWNER);
    await answerIn(root.ts, "Patché 7305.");
    expect(await bot.db.selectFrom("approvals").select(["kind", "status"]).executeTakeFirstOrThrow()).toEqual(
      {
        kind: "file_change",
        status: "approved",
      },
    );
    // The approval lifted Codex's sandbox, never the jail: the patch went to the jail's private
    // /tmp, and the host's file was never written.
    expect(fs.existsSync(target)).toBe(false);
  });

  it("a worker SIGKILLed while waiting: the request is abandoned (the card says so), nothing ran, and a reply continues the conversation", async () => {
    await onRequestBot();
    const marker = path.join(bot.project.path, "ran.txt");
    bot.model.enqueue(escalated(`echo once >> ${marker}`));
    const { root, card } = await askAndCard("écris le marqueur");
    const item = await bot.db
      .selectFrom("prompt_queue")
      .select(["id", "worker_pid", "conversation_id"])
      .where("status", "=", "running")
      .executeTakeFirstOrThrow();
    expect(item.worker_pid).toBeGreaterThan(0);
    process.kill(item.worker_pid!, "SIGKILL");

    const closed = await closedCard(card.ts);
    expect(JSON.stringify(closed.blocks)).toMatch(/cessé d’attendre/);
    expect((await bot.db.selectFrom("approvals").select("status").executeTakeFirstOrThrow()).status).toBe(
      "abandoned",
    );
    // A late click changes nothing and says why.
    const late = await bot.click("approval.approve", approvalId(card), card.ts, OWNER);
    expect((await bot.response(late.responseId)).text).toMatch(/n’attend plus/);

    bot.model.enqueue({ kind: "text", text: "Reprise 7306." });
    await bot.event(
      messageEvent({
        user: OWNER,
        channel: "C1",
        text: "reprends",
        ts: "1800000000.000300",
        thread_ts: root.ts,
      }),
    );
    await answerIn(root.ts, "Reprise 7306.");
    const conversation = await bot.db
      .selectFrom("prompt_queue")
      .select("conversation_id")
      .where("status", "=", "done")
      .executeTakeFirstOrThrow();
    expect(conversation.conversation_id).toBe(item.conversation_id); // the same conversation (and thread)
    expect(fs.existsSync(marker)).toBe(false); // the command never ran, let alone twice
    expect(await bot.db.selectFrom("approvals").select("id").execute()).toHaveLength(1);
  });
});
