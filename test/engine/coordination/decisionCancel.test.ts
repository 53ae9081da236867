import { afterEach, describe, expect, it } from "vitest";
import { startConversation, enqueue } from "../../../src/engine/conversations/conversations.js";
import { stopAndReport, stopConversation } from "../../../src/engine/conversations/stop.js";
import { finishItem } from "../../../src/engine/conversations/outcome.js";
import { answerDecision, listDecisions } from "../../../src/engine/coordination/decisions.js";
import { createSpecialist } from "../../../src/engine/coordination/specialists.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { engineErrorText } from "../../../src/i18n/index.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

const MARKER =
  'CODEXPI_DECISION {"title":"Choix","question":"Quelle option ?","options":[{"id":"a","label":"Option A"},{"id":"b","label":"Option B"}],"allow_multiple":false,"allow_custom":false}';

// The decision's cancel edge: a conversation stopped, failed or cancelled leaves no open decision.
describe("decision cancel edge", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  async function openDecision() {
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.source,
      "Prépare le changement",
      OWNER,
    );
    await completedOutput(env.db, conversation.id, item.id, "Réponse provisoire");
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", MARKER, null),
    );
    const decision = await env.db
      .selectFrom("decisions")
      .selectAll()
      .where("conversation_id", "=", conversation.id)
      .executeTakeFirstOrThrow();
    return { conversation, decision };
  }

  const outboxKinds = async () =>
    (await env.db.selectFrom("outbox").select(["kind", "payload"]).orderBy("id").execute()).map(
      (r) => r.kind,
    );

  it("stopping a conversation that waits on a decision cancels it with a decision.cancelled event; the stop counts it", async () => {
    env = await coordinationEnv();
    const { conversation, decision } = await openDecision();
    expect(decision.status).toBe("OPEN");
    const stopped = await stopAndReport(env.engine, conversation.id);
    expect(stopped).toEqual({ cancelledQueued: 0, stoppingRunning: 0, cancelledDecisions: 1 });
    const row = await env.db
      .selectFrom("decisions")
      .selectAll()
      .where("id", "=", decision.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "CANCELLED",
      answer: null,
      answered_by: null,
      response_queue_id: null,
    });
    expect(await outboxKinds()).toContain("decision.cancelled");
    expect(await listDecisions(env.db, OWNER_ACTOR)).toEqual([]); // no longer waiting for anyone
    // A second stop finds nothing left: idempotent, one event only.
    expect((await stopAndReport(env.engine, conversation.id)).cancelledDecisions).toBe(0);
    expect((await outboxKinds()).filter((k) => k === "decision.cancelled")).toHaveLength(1);
  });

  it("a cancelled decision refuses an answer with a cancelled reason and queues nothing (control: an open one is answered)", async () => {
    env = await coordinationEnv();
    const control = await openDecision();
    const answered = await answerDecision(
      env.db,
      env.clock,
      "fr",
      OWNER_ACTOR,
      control.decision.id,
      ["a"],
      "",
    );
    expect(answered.status).toBe("ANSWERED");

    const { conversation, decision } = await openDecision();
    await stopConversation(env.engine, conversation.id);
    const before = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", conversation.id)
      .execute();
    const err = await answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision.id, ["a"], "").catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: "conflict", reason: "decision_cancelled" });
    expect(engineErrorText("fr", err)).toMatch(/annulée/);
    expect(engineErrorText("en", err)).toMatch(/cancelled/);
    const after = await env.db
      .selectFrom("prompt_queue")
      .select("id")
      .where("conversation_id", "=", conversation.id)
      .execute();
    expect(after).toHaveLength(before.length);
    expect(
      (
        await env.db
          .selectFrom("decisions")
          .select("status")
          .where("id", "=", decision.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("CANCELLED");
  });

  it("a cancelled turn of the conversation cancels its open decision in the transaction that records it; a done or failed turn does not (S-CO-10)", async () => {
    env = await coordinationEnv();
    const { conversation, decision } = await openDecision();
    const status = async () =>
      (
        await env.db
          .selectFrom("decisions")
          .select("status")
          .where("id", "=", decision.id)
          .executeTakeFirstOrThrow()
      ).status;
    const turn = async (outcome: "done" | "failed" | "cancelled") => {
      const item = await enqueue(env.db, env.clock, conversation.id, `tour ${outcome}`, {
        requestedBy: OWNER,
      });
      await env.db
        .updateTable("prompt_queue")
        .set({ status: "running", attempt: 1 })
        .where("id", "=", item.id)
        .execute();
      const written = await writeTransaction(env.db, (trx) =>
        finishItem(
          trx,
          env.clock,
          env.engine.hook,
          { id: item.id, attempt: 1 },
          {
            status: outcome,
            content: outcome === "done" ? "Toujours là." : null,
            error: outcome === "done" ? null : "fin",
            errorCode: outcome === "failed" ? "codex_failed" : outcome === "cancelled" ? "cancelled" : null,
          },
        ),
      );
      expect(written).toBe(true);
    };
    await turn("done");
    expect(await status()).toBe("OPEN");
    await turn("failed"); // the question still stands: answering it resumes the thread
    expect(await status()).toBe("OPEN");
    expect(await outboxKinds()).not.toContain("decision.cancelled");
    await turn("cancelled");
    expect(await status()).toBe("CANCELLED");
    expect(await outboxKinds()).toContain("decision.cancelled");
  });

  it("stopping a conversation whose queued item waits cancels the item and the decision together", async () => {
    env = await coordinationEnv();
    const { conversation, decision } = await openDecision();
    await enqueue(env.db, env.clock, conversation.id, "attends", { requestedBy: OWNER });
    const stopped = await stopConversation(env.engine, conversation.id);
    expect(stopped.cancelledQueued).toBe(1);
    expect(
      (
        await env.db
          .selectFrom("decisions")
          .select("status")
          .where("id", "=", decision.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("CANCELLED");
    const conv = await env.db
      .selectFrom("conversations")
      .select("status")
      .where("id", "=", conversation.id)
      .executeTakeFirstOrThrow();
    expect(conv.status).toBe("idle");
  });

  it("a specialist whose decision is cancelled by a stopped turn does not wait forever: its delegation fails and the caller hears it", async () => {
    env = await coordinationEnv();
    const s = await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio Interface",
      description: "Conçoit les interfaces mobiles et leurs règles d’intégration.",
      capabilities: ["design.interface"],
    });
    await completedOutput(
      env.db,
      s.bootstrap_conversation_id!,
      s.bootstrap_queue_id!,
      'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.interface"]}',
    );
    await env.engine.tick();
    const call =
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Préparer deux directions","context":"PWA"}';
    const { conversation: source, item: calling } = await startConversation(
      env.db,
      env.clock,
      env.source,
      "Refonds la page",
      OWNER,
    );
    await completedOutput(env.db, source.id, calling.id, call);
    await writeTransaction(env.db, (trx) => env.engine.hook(trx, source.id, calling.id, "done", call, null));
    await env.engine.tick();
    const delegation = await env.db
      .selectFrom("specialist_delegations")
      .selectAll()
      .where("source_queue_id", "=", calling.id)
      .executeTakeFirstOrThrow();
    const specialistConversation = delegation.specialist_conversation_id!;
    await completedOutput(env.db, specialistConversation, delegation.queue_id!, MARKER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, specialistConversation, delegation.queue_id!, "done", MARKER, null),
    );
    const waiting = await env.db
      .selectFrom("specialist_delegations")
      .select("status")
      .where("id", "=", delegation.id)
      .executeTakeFirstOrThrow();
    expect(waiting.status).toBe("WAITING_CHILD");

    const extra = await enqueue(env.db, env.clock, specialistConversation, "relance", { requestedBy: OWNER });
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", attempt: 1 })
      .where("id", "=", extra.id)
      .execute();
    await writeTransaction(env.db, (trx) =>
      finishItem(
        trx,
        env.clock,
        env.engine.hook,
        { id: extra.id, attempt: 1 },
        { status: "cancelled", content: null, error: "arrêté par la personne", errorCode: "cancelled" },
      ),
    );
    expect(
      (
        await env.db
          .selectFrom("decisions")
          .select("status")
          .where("conversation_id", "=", specialistConversation)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("CANCELLED");
    await env.engine.tick();
    const ended = await env.db
      .selectFrom("specialist_delegations")
      .selectAll()
      .where("id", "=", delegation.id)
      .executeTakeFirstOrThrow();
    expect(ended).toMatchObject({ status: "FAILED", error: "arrêté par la personne" });
    const told = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("conversation_id", "=", source.id)
      .where("origin_kind", "=", "specialist_result")
      .executeTakeFirst();
    expect(told?.content).toContain("arrêté par la personne");
  });
});
