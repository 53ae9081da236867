import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { listIncidents } from "../../../src/engine/coordination/incidents.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

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
});
