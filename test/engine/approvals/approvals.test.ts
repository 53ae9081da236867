import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../../src/engine/codex/appServer/approvalTypes.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { finishItem } from "../../../src/engine/conversations/outcome.js";
import { conversationRights } from "../../../src/engine/projects/access.js";
import { answerApprovalUseCase, getApproval } from "../../../src/engine/approvals/answers.js";
import {
  APPROVAL_TRANSITIONS,
  DECISION_OF_STATUS,
  isAnswerable,
} from "../../../src/engine/approvals/machine.js";
import { approvalHandler } from "../../../src/engine/approvals/waiter.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { performEffects, runUseCase } from "../../../src/engine/kernel.js";
import { terminalStatuses } from "../../../src/engine/stateMachine.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { testEngine } from "../../support/engine.js";

const PERSON = { userId: "UPERSON", isAdmin: false };
const OWNER = { userId: "UOWNER", isAdmin: false };
const OTHER = { userId: "UOTHER", isAdmin: false };
const ADMIN = { userId: "UADMIN", isAdmin: true };

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  kind: "command",
  threadId: "thread-1",
  turnId: "turn-1",
  itemId: "item-1",
  approvalId: null,
  command: "npm install",
  cwd: "/work/demo",
  reason: "needs the network",
  diff: null,
  files: [],
  ...over,
});

describe("approvals", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  const aborts: AbortController[] = [];
  afterEach(async () => {
    for (const a of aborts.splice(0)) a.abort();
    await env?.close();
  });

  /**
   * A conversation of `user` (PERSON by default, in a project nobody owns, which everyone sees: a
   * refusal is then the answer rule's, not visibility's), its item running as a worker holds it.
   */
  async function runningTurn(opts: { owned?: boolean; user?: string } = {}) {
    const project = opts.owned
      ? env.project
      : ((await env.db.selectFrom("projects").selectAll().where("name", "=", "commons").executeTakeFirst()) ??
        (await env.addProject({ name: "commons", ownerId: null })));
    const user = opts.user ?? PERSON.userId;
    const { conversation, item } = await startConversation(env.db, env.clock, project, "installe", user);
    await env.db.updateTable("prompt_queue").set({ status: "running" }).where("id", "=", item.id).execute();
    return { conversationId: conversation.id, queueId: item.id, attempt: item.attempt };
  }

  /** Starts waiting as the worker does (its abort stands for the turn's end). */
  function wait(turn: Awaited<ReturnType<typeof runningTurn>>, r = request()) {
    const abort = new AbortController();
    aborts.push(abort);
    const decision = approvalHandler(env.engine, turn)(r, abort.signal);
    return { decision, abort };
  }

  const pendingId = async () =>
    (
      await eventuallyRow(() =>
        env.db.selectFrom("approvals").select("id").where("status", "=", "pending").executeTakeFirst(),
      )
    ).id;

  const events = async (kind: string) =>
    (await env.db.selectFrom("outbox").select(["kind", "payload"]).where("kind", "=", kind).execute()).map(
      (e) => JSON.parse(e.payload) as Record<string, unknown>,
    );

  it("the machine: pending is the only open status, every other is terminal and tells Codex something", () => {
    expect(terminalStatuses(APPROVAL_TRANSITIONS).sort()).toEqual(
      ["abandoned", "approved", "approved_session", "denied", "expired", "stopped"].sort(),
    );
    expect(isAnswerable("pending")).toBe(true);
    expect(isAnswerable("approved")).toBe(false);
    expect(DECISION_OF_STATUS).toMatchObject({
      pending: null,
      approved: "accept",
      approved_session: "acceptForSession",
      denied: "decline",
      stopped: "cancel",
      expired: "cancel",
      abandoned: "cancel",
    });
  });

  it("a request becomes one durable row and one event; the person's Approve reaches the waiting runner within a second", async () => {
    env = await testEngine();
    const turn = await runningTurn();
    const { decision } = wait(turn);
    const id = await pendingId();
    const row = await env.db
      .selectFrom("approvals")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      conversation_id: turn.conversationId,
      queue_id: turn.queueId,
      attempt: turn.attempt,
      user_id: PERSON.userId,
      codex_thread_id: "thread-1",
      item_id: "item-1",
      approval_id: "item-1", // no approval id from Codex: the item id stands for it
      kind: "command",
      command: "npm install",
      cwd: "/work/demo",
      reason: "needs the network",
      status: "pending",
      expires_at: env.clock.now() + 24 * 3600 * 1000,
    });
    expect(await events("approval.requested")).toEqual([
      { kind: "approval.requested", conversationId: turn.conversationId, approvalId: id },
    ]);
    const answeredAt = Date.now();
    await runUseCase(env.engine, () => answerApprovalUseCase(env.engine, PERSON, id, "approve"));
    expect(await decision).toBe("accept");
    expect(Date.now() - answeredAt).toBeLessThan(1_000);
    expect(await getApproval(env.db, PERSON, id)).toMatchObject({
      status: "approved",
      answered_by: PERSON.userId,
      answered_at: env.clock.now(),
    });
    expect(await events("approval.answered")).toHaveLength(1);
  });

  it("the same request replayed finds the same row (no second card) and its answer at once", async () => {
    env = await testEngine();
    const turn = await runningTurn();
    const first = wait(turn, request({ approvalId: "ap-1" }));
    const id = await pendingId();
    await runUseCase(env.engine, () => answerApprovalUseCase(env.engine, PERSON, id, "deny"));
    expect(await first.decision).toBe("decline");
    const replay = wait(turn, request({ approvalId: "ap-1" }));
    expect(await replay.decision).toBe("decline");
    expect(await env.db.selectFrom("approvals").select("id").execute()).toEqual([{ id }]);
    expect(await events("approval.requested")).toHaveLength(1);
    // Another approval id of the same item is another request (positive control of the key).
    const other = wait(turn, request({ approvalId: "ap-2" }));
    await eventuallyRow(async () => (await events("approval.requested")).length === 2 || undefined);
    other.abort.abort();
    expect(await other.decision).toBe("cancel");
  });

  it("who answers: the conversation's person, the project's owner, admins; anyone else is told who may when they see the conversation (S-SEE-01), else not found, and changes nothing", async () => {
    env = await testEngine();
    // PERSON's conversation where OTHER sees everything (nobody owns the project), and an admin's
    // conversation in OWNER's project: OWNER answers its approvals though not its decisions.
    const commons = await runningTurn();
    const owned = await runningTurn({ owned: true, user: "UADMIN2" });
    const rights = await conversationRights(env.db, OWNER, {
      conversation: { id: owned.conversationId, user_id: "UADMIN2" },
      project: env.project,
    });
    // Its threads are the team's (the default): the owner, who may prompt it, answers its decisions
    // too (S-THREAD-05); with `--thread-prompters author` only its approvals.
    expect(rights.answer).toEqual({ decision: true, approval: true });
    const authorOnly = await conversationRights(env.db, OWNER, {
      conversation: { id: owned.conversationId, user_id: "UADMIN2" },
      project: { ...env.project, thread_prompters: "author" },
    });
    expect(authorOnly.answer).toEqual({ decision: false, approval: true });
    for (const [turn, who, answer, decision] of [
      [commons, PERSON, "approve_session", "acceptForSession"],
      [owned, OWNER, "deny", "decline"],
      [commons, ADMIN, "approve", "accept"],
    ] as const) {
      const waiting = wait(turn, request({ itemId: `item-${who.userId}` }));
      const id = await pendingId();
      const refused = await answerApprovalUseCase(env.engine, OTHER, id, "approve").catch((e) => e);
      // OTHER sees the conversations of the project nobody owns, not those of OWNER's project.
      if (turn === owned) {
        expect(refused).toMatchObject({ code: "not_found", reason: "approval_not_found" });
        expect(engineErrorText("en", refused)).toMatch(/not found/);
      } else expect(refused).toMatchObject({ code: "forbidden", reason: "approval_reserved" });
      expect(
        (await env.db.selectFrom("approvals").select("status").where("id", "=", id).executeTakeFirst())
          ?.status,
      ).toBe("pending");
      await runUseCase(env.engine, () => answerApprovalUseCase(env.engine, who, id, answer));
      expect(await waiting.decision).toBe(decision);
    }
    expect(await events("approval.answered")).toHaveLength(3);
  });

  it("a double click answers once: the second is told it was already answered and changes nothing", async () => {
    env = await testEngine();
    const turn = await runningTurn();
    const { decision } = wait(turn);
    const id = await pendingId();
    const clicks = await Promise.allSettled([
      runUseCase(env.engine, () => answerApprovalUseCase(env.engine, PERSON, id, "approve")),
      runUseCase(env.engine, () => answerApprovalUseCase(env.engine, ADMIN, id, "deny")),
    ]);
    expect(clicks.map((c) => c.status).sort()).toEqual(["fulfilled", "rejected"]);
    const lost = clicks.find((c) => c.status === "rejected") as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: "conflict", reason: "approval_answered" });
    // Either click may win (on PostgreSQL they really run at once); the runner hears the winner's.
    const personWon = clicks[0]?.status === "fulfilled";
    expect(await decision).toBe(personWon ? "accept" : "decline");
    expect((await getApproval(env.db, ADMIN, id)).answered_by).toBe(personWon ? PERSON.userId : ADMIN.userId);
    expect(await events("approval.answered")).toHaveLength(1);
  });

  it("an unanswered request expires after the TTL as cancel, with its event; an answer after that is refused", async () => {
    env = await testEngine({ env: { CODEXPI_APPROVAL_TTL: "60" } });
    const turn = await runningTurn();
    const { decision, abort } = wait(turn);
    const id = await pendingId();
    // The waiter checks the deadline too (next test) and could win the race with the tick on a
    // loaded machine: its turn ends here (the request stays pending), so only the tick expires it.
    abort.abort();
    expect(await decision).toBe("cancel");
    expect((await getApproval(env.db, PERSON, id)).status).toBe("pending");
    env.clock.advance(59_000);
    expect(await env.engine.tick()).toMatchObject({ expired: [] });
    env.clock.advance(1_000);
    expect(await env.engine.tick()).toMatchObject({ expired: [id] });
    expect(await events("approval.expired")).toEqual([
      { kind: "approval.expired", conversationId: turn.conversationId, approvalId: id },
    ]);
    await expect(answerApprovalUseCase(env.engine, PERSON, id, "approve")).rejects.toMatchObject({
      code: "conflict",
      reason: "approval_expired",
    });
    expect((await getApproval(env.db, PERSON, id)).status).toBe("expired");
  });

  it("a waiting worker expires its own request when no tick runs", async () => {
    env = await testEngine({ env: { CODEXPI_APPROVAL_TTL: "60" } });
    const turn = await runningTurn();
    const { decision } = wait(turn);
    const id = await pendingId();
    env.clock.advance(61_000);
    expect(await decision).toBe("cancel");
    expect((await getApproval(env.db, PERSON, id)).status).toBe("expired");
    expect(await events("approval.expired")).toHaveLength(1);
  });

  it("Stop closes the request as cancel and stops the conversation", async () => {
    env = await testEngine();
    const turn = await runningTurn();
    const { decision } = wait(turn);
    const id = await pendingId();
    await runUseCase(env.engine, () => answerApprovalUseCase(env.engine, PERSON, id, "stop"));
    expect(await decision).toBe("cancel");
    const item = await env.db
      .selectFrom("prompt_queue")
      .select("cancel_requested_at")
      .where("id", "=", turn.queueId)
      .executeTakeFirstOrThrow();
    expect(item.cancel_requested_at).not.toBeNull();
  });

  it("Stop's cancel reaches the runner only once the conversation's stop is recorded (its turn ends cancelled, not failed)", async () => {
    env = await testEngine();
    const turn = await runningTurn();
    const { decision } = wait(turn);
    const id = await pendingId();
    const { effects } = await answerApprovalUseCase(env.engine, PERSON, id, "stop");
    expect(effects).toEqual({ stop: [turn.conversationId] });
    let settledEarly = false;
    void decision.then(() => {
      settledEarly = true;
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(settledEarly).toBe(false);
    await performEffects(env.engine, effects);
    expect(await decision).toBe("cancel");
  });

  it("the turn's end leaves its pending request abandoned (with its event), and the runner is answered cancel", async () => {
    env = await testEngine();
    const turn = await runningTurn();
    const { decision, abort } = wait(turn);
    const id = await pendingId();
    abort.abort(); // the turn stops: the runner is answered at once
    expect(await decision).toBe("cancel");
    expect((await getApproval(env.db, PERSON, id)).status).toBe("pending"); // until the item is finished
    await writeTransaction(env.db, (trx) =>
      finishItem(
        trx,
        env.clock,
        env.engine.hook,
        { id: turn.queueId, attempt: turn.attempt },
        {
          status: "failed",
          content: null,
          error: "interrupted",
          errorCode: "interrupted",
        },
      ),
    );
    expect((await getApproval(env.db, PERSON, id)).status).toBe("abandoned");
    expect(await events("approval.abandoned")).toEqual([
      { kind: "approval.abandoned", conversationId: turn.conversationId, approvalId: id },
    ]);
    await expect(answerApprovalUseCase(env.engine, PERSON, id, "approve")).rejects.toMatchObject({
      reason: "approval_abandoned",
    });
  });
});

async function eventuallyRow<T>(read: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
