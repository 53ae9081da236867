import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { followUp, loadConversation, stop } from "../../../src/engine/conversations/conversationService.js";
import { newId } from "../../../src/engine/ids.js";
import { setBudget } from "../../../src/engine/usage/index.js";
import { answerDecision } from "../../../src/engine/coordination/decisions.js";
import { writeTransaction } from "../../../src/engine/database.js";
import {
  setProjectPrompter,
  setProjectThreadPrompters,
  type Actor,
} from "../../../src/engine/projects/index.js";
import type { ThreadPrompters } from "../../../src/engine/schema.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

const MARKER =
  'CODEXPI_DECISION {"title":"Choice","question":"Which one?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}';

// A thread is the team's (DESIGN, issue 32 item 3), in the engine: with `--thread-prompters
// prompters` (the default) a person the owner allows to prompt the project answers the decisions
// of someone else's conversation and stops it; with `author` they may not; who sets it.
describe("--thread-prompters", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  const BOB: Actor = { userId: "UBOB", isAdmin: false };
  const MALLORY: Actor = { userId: "UMALLORY", isAdmin: false };

  /** The owner's conversation, its turn done with a decision asked of the owner. */
  async function ownersDecision(who: ThreadPrompters) {
    env = await coordinationEnv();
    await setProjectPrompter(env.db, env.clock, OWNER_ACTOR, env.source.name, BOB.userId, true);
    await setProjectThreadPrompters(env.db, OWNER_ACTOR, env.source.name, who);
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "Ship it", OWNER);
    await completedOutput(env.db, conversation.id, item.id, "Answer");
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", MARKER, null),
    );
    const decision = await env.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
    return { conversation, decision };
  }

  it("S-THREAD-06: with prompters (the default), a teammate answers the owner's decision (the answer's turn is theirs) and stops the conversation; someone the owner never allowed may do neither", async () => {
    const { conversation, decision } = await ownersDecision("prompters");
    await expect(
      answerDecision(env.db, env.clock, "en", MALLORY, decision.id, ["a"], ""),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    const answered = await answerDecision(env.db, env.clock, "en", BOB, decision.id, ["b"], "");
    expect(answered.status).toBe("ANSWERED");
    const row = await env.db
      .selectFrom("decisions")
      .selectAll()
      .where("id", "=", decision.id)
      .executeTakeFirstOrThrow();
    expect(row.answered_by).toBe(BOB.userId);
    const response = await env.db
      .selectFrom("prompt_queue")
      .select(["requested_by", "status"])
      .where("id", "=", row.response_queue_id as string)
      .executeTakeFirstOrThrow();
    expect(response).toEqual({ requested_by: BOB.userId, status: "queued" });

    await expect(stop(env.engine, MALLORY, conversation.id)).rejects.toMatchObject({ code: "not_found" });
    const stopped = await stop(env.engine, BOB, conversation.id);
    expect(stopped.cancelledQueued).toBe(1);
  });

  it("S-THREAD-07: with author, the same teammate may neither answer nor stop (the owner, its person, still may); only the owner or an admin sets it, to author or prompters only", async () => {
    const { conversation, decision } = await ownersDecision("author");
    await expect(answerDecision(env.db, env.clock, "en", BOB, decision.id, ["b"], "")).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(stop(env.engine, BOB, conversation.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await answerDecision(env.db, env.clock, "en", OWNER_ACTOR, decision.id, ["a"], "")).status).toBe(
      "ANSWERED",
    );

    await expect(setProjectThreadPrompters(env.db, BOB, env.source.name, "prompters")).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(
      setProjectThreadPrompters(env.db, OWNER_ACTOR, env.source.name, "everyone" as ThreadPrompters),
    ).rejects.toMatchObject({ code: "invalid", reason: "thread_prompters_invalid" });
    const p = await setProjectThreadPrompters(env.db, OWNER_ACTOR, env.source.name, "prompters");
    expect(p.thread_prompters).toBe("prompters");
    const c = await loadConversation(env.engine, conversation.id);
    expect(c.project.thread_prompters).toBe("prompters");
  });

  it("S-THREAD-08: a teammate's follow-up is checked against the teammate's budget: with theirs spent it is refused, naming them, while the author's follow-up in the same conversation queues (the control)", async () => {
    const { conversation } = await ownersDecision("prompters");
    await setBudget(
      env.engine,
      { userId: "UADMIN", isAdmin: true },
      { scope: "user", name: BOB.userId },
      { daily: 100 },
    );
    await env.db
      .insertInto("turn_usage")
      .values({
        queue_id: newId(),
        conversation_id: newId(),
        project_id: env.source.id,
        person: BOB.userId,
        model: null,
        input_tokens: 80,
        cached_input_tokens: 0,
        output_tokens: 20,
        total_input_tokens: 80,
        total_cached_input_tokens: 0,
        total_output_tokens: 20,
        agent_ms: 1000,
        day: new Date(env.clock.now()).toISOString().slice(0, 10),
        finished_at: env.clock.now(),
      })
      .execute();
    const c = await loadConversation(env.engine, conversation.id);
    await expect(followUp(env.engine, BOB, c, "go on")).rejects.toMatchObject({
      code: "forbidden",
      reason: "over_budget",
    });
    const owners = await followUp(env.engine, OWNER_ACTOR, c, "go on");
    expect(owners.item.requested_by).toBe(OWNER);
  });
});
