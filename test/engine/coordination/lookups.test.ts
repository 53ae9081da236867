import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import {
  findIncident,
  getIncident,
  listIncidents,
  retryIncident,
} from "../../../src/engine/coordination/incidents.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { newId } from "../../../src/engine/ids.js";
import {
  createOrchestration,
  getOrchestration,
  listOrchestrations,
} from "../../../src/engine/orchestrations/index.js";
import { coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";
import { APP_TEST, disposableRepository } from "../orchestrations/repo.js";

// Lookups by id and lists filtered by who may see: a row older than the newest few hundred of
// other people's rows must still be found.

const SYSTEM = { userId: "system", isAdmin: true };
const OTHER = { userId: "UOTHER", isAdmin: false };

describe("lookups by id and per-actor lists", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("the 201st newest incident is found by id, retried, and still listed for its owner", async () => {
    const env = await coordinationEnv();
    closers.push(env.close);
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Exécute", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "failed", null, "boom"),
    );
    const oldest = (await env.db.selectFrom("incidents").select("id").executeTakeFirstOrThrow()).id;
    // 205 newer incidents of someone else's conversation in another project.
    const other = await env.addProject({ name: "other", ownerId: OTHER.userId });
    const theirs = await startConversation(env.db, env.clock, other, "x", OTHER.userId);
    const now = env.clock.now();
    const rows = Array.from({ length: 205 }, (_, i) => ({
      id: newId(),
      conversation_id: theirs.conversation.id,
      queue_id: newId(),
      project_id: other.id,
      user_id: OTHER.userId,
      status: "FAILED" as const,
      error: "theirs",
      error_code: null,
      auto_repair: 0,
      repair_project_id: null,
      repair_conversation_id: null,
      repair_queue_id: null,
      resolution: null,
      created_at: now + 1 + i,
      updated_at: now + 1 + i,
    }));
    await env.db.insertInto("incidents").values(rows).execute();

    expect((await findIncident(env.db, SYSTEM, oldest))?.id).toBe(oldest); // the notifier's lookup
    expect((await getIncident(env.db, OWNER_ACTOR, oldest)).error).toBe("boom");
    await expect(getIncident(env.db, OTHER, oldest)).rejects.toMatchObject({ code: "not_found" });
    expect((await listIncidents(env.db, OWNER_ACTOR)).map((i) => i.id)).toEqual([oldest]);
    const { queueId } = await retryIncident(env.engine, OWNER_ACTOR, oldest);
    expect(
      (
        await env.db
          .selectFrom("prompt_queue")
          .select("conversation_id")
          .where("id", "=", queueId)
          .executeTakeFirstOrThrow()
      ).conversation_id,
    ).toBe(conversation.id);
    expect((await getIncident(env.db, OWNER_ACTOR, oldest)).status).toBe("RESOLVED");
  });

  it("an orchestration older than 500 newer ones of other people is still listed for its owner", async () => {
    const env = await disposableRepository();
    closers.push(env.close);
    const flow = await createOrchestration(env.engine, OWNER_ACTOR, {
      project_id: env.projectId,
      name: "Ancienne",
      request: "Modifier le fichier.",
      acceptance_criteria: [],
      tests: [APP_TEST],
      engine: "codex",
    });
    const row = await env.db
      .selectFrom("orchestrations")
      .selectAll()
      .where("id", "=", flow.id)
      .executeTakeFirstOrThrow();
    const other = await env.addProject({ name: "other", ownerId: OTHER.userId });
    const copies = Array.from({ length: 501 }, (_, i) => ({
      ...row,
      id: newId(),
      project_id: other.id,
      owner_id: OTHER.userId,
      created_at: row.created_at + 1 + i,
    }));
    for (let i = 0; i < copies.length; i += 100)
      await env.db
        .insertInto("orchestrations")
        .values(copies.slice(i, i + 100))
        .execute();

    expect((await listOrchestrations(env.engine, OWNER_ACTOR)).map((o) => o.id)).toEqual([flow.id]);
    expect((await getOrchestration(env.engine, OWNER_ACTOR, flow.id)).id).toBe(flow.id);
    expect(await listOrchestrations(env.engine, OTHER)).toHaveLength(50);
  });
});
