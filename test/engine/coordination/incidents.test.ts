import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { listIncidents } from "../../../src/engine/coordination/incidents.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";
import { failureRunEnd } from "../../../src/engine/conversations/index.js";
import { failureNote, isModelFailure } from "../../../src/i18n/failures.js";

describe("incidents and self-repair", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  it("S-CO-02: a failed agent becomes an OPEN incident with auto_repair; the next tick repairs it in CodexPi (Self)", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Exécute", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(
        trx,
        conversation.id,
        item.id,
        "failed",
        null,
        "Le worker s’est arrêté avec une exception inattendue",
      ),
    );
    const [incident] = await listIncidents(env.db, OWNER_ACTOR);
    expect(incident).toMatchObject({ status: "OPEN", auto_repair: true });
    await env.engine.tick();
    const [repairing] = await listIncidents(env.db, OWNER_ACTOR);
    expect(repairing).toMatchObject({ status: "REPAIRING", repair_project_name: "CodexPi (Self)" });
    const repair = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("origin_kind", "=", "repair")
      .executeTakeFirstOrThrow();
    expect(repair.content).toContain("> Le worker s’est arrêté avec une exception inattendue"); // quoted as data
    expect(repair.content).toContain("Ne contourne jamais");
    await env.engine.tick(); // a second tick changes nothing
    expect(
      await env.db.selectFrom("prompt_queue").select("id").where("origin_kind", "=", "repair").execute(),
    ).toHaveLength(1);

    await completedOutput(
      env.db,
      repairing!.repair_conversation_id!,
      repair.id,
      'Corrigé. CODEXPI_SELF_REPAIR {"decision":"fixed","feedback":"garde-fou ajouté","prompt_addendum":""}',
    );
    await env.engine.tick();
    const all = await listIncidents(env.db, OWNER_ACTOR, { all: true });
    expect(all[0]).toMatchObject({ status: "RESOLVED", resolution: "garde-fou ajouté" });
  });

  it("a repair, a stop and a specialist's failure open no incident (control: a user's failure does)", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.source,
      "réparation",
      null,
      { origin: "repair" },
    );
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "failed", null, "boom"),
    );
    const stopped = await startConversation(env.db, env.clock, env.source, "x", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, stopped.conversation.id, stopped.item.id, "cancelled", null, "stop"),
    );
    expect(await listIncidents(env.db, OWNER_ACTOR, { all: true })).toHaveLength(0);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, stopped.conversation.id, stopped.item.id, "failed", null, "boom"),
    );
    expect(await listIncidents(env.db, OWNER_ACTOR, { all: true })).toHaveLength(1);
    expect(await listIncidents(env.db, { userId: "USTRANGER", isAdmin: false }, { all: true })).toHaveLength(
      0,
    );
  });
});

describe("incident retry", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  it("retrying a failed incident queues its prompt again in the same conversation, once, for allowed users only", async () => {
    env = await coordinationEnv();
    const { retryIncident } = await import("../../../src/engine/coordination/incidents.js");
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.source,
      "Exécute la migration",
      OWNER,
    );
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "failed", null, "boom"),
    );
    const [incident] = await listIncidents(env.db, OWNER_ACTOR);
    await expect(
      retryIncident(env.engine, { userId: "USTRANGER", isAdmin: false }, incident!.id),
    ).rejects.toMatchObject({ code: "not_found" });
    const { queueId } = await retryIncident(env.engine, OWNER_ACTOR, incident!.id);
    const again = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", queueId)
      .executeTakeFirstOrThrow();
    expect(again).toMatchObject({
      conversation_id: conversation.id,
      content: "Exécute la migration",
      origin_kind: "user",
    });
    await expect(retryIncident(env.engine, OWNER_ACTOR, incident!.id)).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("S-TOLD-04: a completed turn in the project resolves its incidents caused by the model, audited; one with another cause stays open; failures of the model in a row are counted", async () => {
    env = await coordinationEnv();
    const unreachable = failureNote("worker.model_unreachable", { s: 120, detail: "Connection failed" });
    const fail = async (prompt: string, error: string) => {
      const { conversation, item } = await startConversation(env.db, env.clock, env.source, prompt, OWNER);
      await writeTransaction(env.db, (trx) =>
        env.engine.hook(trx, conversation.id, item.id, "failed", null, error),
      );
      await env.db
        .updateTable("prompt_queue")
        .set({ status: "failed", error, finished_at: env.clock.now() })
        .where("id", "=", item.id)
        .execute();
    };
    await fail("one", "Codex crashed");
    await fail("two", unreachable);
    await fail("three", unreachable);
    expect(await failureRunEnd(env.db, 2, isModelFailure)).not.toBeNull();
    expect(await failureRunEnd(env.db, 3, isModelFailure)).toBeNull(); // the crash breaks the run
    expect((await listIncidents(env.db, OWNER_ACTOR)).map((i) => i.status)).toEqual(["OPEN", "OPEN", "OPEN"]);

    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "four", OWNER);
    await completedOutput(env.db, conversation.id, item.id, "done");
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", "done", null),
    );
    expect(await failureRunEnd(env.db, 2, isModelFailure)).toBeNull();
    const all = await listIncidents(env.db, OWNER_ACTOR, { all: true });
    const byCause = (cause: string) => all.filter((i) => i.error === cause).map((i) => i.status);
    expect(byCause(unreachable)).toEqual(["RESOLVED", "RESOLVED"]);
    expect(byCause("Codex crashed")).toEqual(["OPEN"]);
    const audit = await env.db
      .selectFrom("audit_events")
      .select(["target", "actor"])
      .where("action", "=", "incident.recover")
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit.every((a) => a.actor === `agent:${conversation.id}`)).toBe(true);
    const events = await env.db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", "incident.updated")
      .execute();
    expect(events.filter((e) => e.payload.includes('"RESOLVED"'))).toHaveLength(2);
    // A second outcome recorded for the same turn moves nothing more.
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", "done", null),
    );
    expect(
      await env.db.selectFrom("audit_events").select("id").where("action", "=", "incident.recover").execute(),
    ).toHaveLength(2);
  });
});
