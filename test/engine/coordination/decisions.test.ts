import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { answerDecision, listDecisions } from "../../../src/engine/coordination/decisions.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

const MARKER =
  'CODEXPI_DECISION {"title":"Choix","question":"Quelle option ?","options":[{"id":"a","label":"Option A"},{"id":"b","label":"Option B"}],"allow_multiple":false,"allow_custom":true}';

describe("decisions", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  async function decisionInSource() {
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
    return { conversation, item };
  }

  it("S-CO-01: a decision answer resumes the same conversation; answering again is refused with who answered what", async () => {
    env = await coordinationEnv();
    const { conversation } = await decisionInSource();
    const [decision] = await listDecisions(env.db, OWNER_ACTOR);
    expect(decision).toMatchObject({ status: "OPEN", question: "Quelle option ?", user_id: OWNER });
    const answered = await answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["a"], "");
    expect(answered.status).toBe("ANSWERED");
    const response = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", answered.response_queue_id!)
      .executeTakeFirstOrThrow();
    expect(response.conversation_id).toBe(conversation.id);
    expect(response.origin_kind).toBe("decision_answer");
    expect(response.content).toContain("Option A");
    await expect(
      answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["b"], ""),
    ).rejects.toMatchObject({ code: "conflict", reason: "decision_answered" });
    const { engineErrorText } = await import("../../../src/i18n/index.js");
    const err = await answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["b"], "").catch(
      (e) => e,
    );
    expect(engineErrorText("fr", err)).toBe(`Déjà répondu par ${OWNER_ACTOR.userId} : Option A`);
  });

  it("recording the same outcome twice opens one decision", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await decisionInSource();
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", MARKER, null),
    );
    expect(await listDecisions(env.db, OWNER_ACTOR)).toHaveLength(1);
  });

  it("S-CO-11: only the person at the root answers: another user gets not found, bad answers are refused", async () => {
    env = await coordinationEnv();
    await decisionInSource();
    const [decision] = await listDecisions(env.db, OWNER_ACTOR);
    expect(await listDecisions(env.db, { userId: "USTRANGER", isAdmin: false })).toEqual([]);
    await expect(
      answerDecision(
        env.db,
        env.clock,
        "fr",
        { userId: "USTRANGER", isAdmin: false },
        decision!.id,
        ["a"],
        "",
      ),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["zzz"], ""),
    ).rejects.toMatchObject({ reason: "decision_option_unknown" });
    await expect(
      answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["a", "b"], ""),
    ).rejects.toMatchObject({ reason: "decision_one_option" });
    await expect(
      answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, [], ""),
    ).rejects.toMatchObject({ reason: "decision_empty_answer" });
    const custom = await answerDecision(
      env.db,
      env.clock,
      "fr",
      OWNER_ACTOR,
      decision!.id,
      [],
      "Ni l’une ni l’autre",
    );
    expect(custom.answer).toEqual({ option_ids: [], custom: "Ni l’une ni l’autre" });
  });

  it("a failed outcome or text without a valid marker opens no decision (control: the marker does)", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "x", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(
        trx,
        conversation.id,
        item.id,
        "done",
        'CODEXPI_DECISION {"question":"Sans choix","options":[]}',
        null,
      ),
    );
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "failed", MARKER, "boom"),
    );
    expect(await listDecisions(env.db, OWNER_ACTOR)).toHaveLength(0);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", MARKER, null),
    );
    expect(await listDecisions(env.db, OWNER_ACTOR)).toHaveLength(1);
  });
});
