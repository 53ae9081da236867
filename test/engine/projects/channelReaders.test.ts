import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { followUp, loadConversation, stop } from "../../../src/engine/conversations/conversationService.js";
import { conversationRights } from "../../../src/engine/projects/access.js";
import {
  listProjects,
  projectForActor,
  setProjectPrompter,
  setProjectThreadPrompters,
  setProjectVisibility,
  type Actor,
} from "../../../src/engine/projects/index.js";
import { queueStatus } from "../../../src/engine/dispatch/status.js";
import { answerDecision } from "../../../src/engine/coordination/decisions.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

const MARKER =
  'CODEXPI_DECISION {"title":"Choix","question":"Quelle option ?","options":[{"id":"a","label":"A"},{"id":"b","label":"B"}]}';

// See and prompt are distinct (DESIGN): a project its owner made visible to its channel is read by
// that channel's members, who still may not prompt, answer or stop; tried as an attacker.
describe("a project visible to its channel's members", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  const MEMBER: Actor = { userId: "UMALLORY", isAdmin: false, channels: ["CTEAM"] };
  const OUTSIDER: Actor = { userId: "UOUT", isAdmin: false, channels: ["COTHER"] };

  async function setUp(visibility: "channel" | "private") {
    env = await coordinationEnv();
    await env.db
      .updateTable("projects")
      .set({ channel_id: "CTEAM" })
      .where("id", "=", env.source.id)
      .execute();
    await setProjectVisibility(env.db, OWNER_ACTOR, env.source.name, visibility);
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.source,
      "Prépare la release",
      OWNER,
    );
    return { conversation, item };
  }

  async function withOpenDecision(conversationId: string, itemId: string) {
    await completedOutput(env.db, conversationId, itemId, "Réponse");
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversationId, itemId, "done", MARKER, null),
    );
    return env.db.selectFrom("decisions").selectAll().executeTakeFirstOrThrow();
  }

  it("S-SEE-01: a member reads (rights, listings, status) but cannot prompt, follow up, stop or answer, and is told who may; the owner can (control)", async () => {
    const { conversation, item } = await setUp("channel");
    const c = await loadConversation(env.engine, conversation.id);
    expect(await conversationRights(env.db, MEMBER, c)).toEqual({
      see: true,
      prompt: false,
      answer: { decision: false, approval: false },
    });
    expect(await conversationRights(env.db, OWNER_ACTOR, c)).toEqual({
      see: true,
      prompt: true,
      answer: { decision: true, approval: true },
    });
    expect((await listProjects(env.db, MEMBER)).map((p) => p.name)).toContain(env.source.name);
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", started_at: 1 })
      .where("id", "=", item.id)
      .execute();
    expect((await queueStatus(env.engine, MEMBER)).running.map((r) => r.conversationId)).toEqual([
      conversation.id,
    ]);

    await expect(projectForActor(env.db, MEMBER, env.source.name)).rejects.toMatchObject({
      code: "forbidden",
      reason: "project_read_only",
      params: { name: env.source.name, owner: OWNER },
    });
    // Told who may prompt (not "not found": they see it), and that they may not prompt the project either.
    await expect(followUp(env.engine, MEMBER, c, "rm -rf")).rejects.toMatchObject({
      code: "forbidden",
      reason: "conversation_reserved",
      params: { project: env.source.name, owner: OWNER, may_prompt_project: 0 },
    });
    await expect(stop(env.engine, MEMBER, conversation.id)).rejects.toMatchObject({ code: "forbidden" });
    expect((await env.db.selectFrom("prompt_queue").select("status").execute()).map((r) => r.status)).toEqual(
      ["running"],
    );
    // Setting the project up is the owner's: a reader cannot open it to others or allow themself.
    await expect(
      setProjectPrompter(env.db, env.clock, MEMBER, env.source.name, MEMBER.userId, true),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(setProjectVisibility(env.db, MEMBER, env.source.name, "channel")).rejects.toMatchObject({
      code: "forbidden",
    });

    await env.db.updateTable("prompt_queue").set({ status: "done" }).where("id", "=", item.id).execute();
    const decision = await withOpenDecision(conversation.id, item.id);
    await expect(
      answerDecision(env.db, env.clock, "fr", MEMBER, decision.id, ["a"], ""),
    ).rejects.toMatchObject({
      code: "forbidden",
      reason: "decision_reserved",
      params: { project: env.source.name },
    });
    // The owner, the conversation's person, answers (control).
    expect((await answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision.id, ["a"], "")).status).toBe(
      "ANSWERED",
    );
  });

  it("S-SEE-02: someone outside the channel, and a member of a private project's channel, get 'not found' for everything", async () => {
    const { conversation } = await setUp("channel");
    const c = await loadConversation(env.engine, conversation.id);
    expect(await conversationRights(env.db, OUTSIDER, c)).toEqual({
      see: false,
      prompt: false,
      answer: { decision: false, approval: false },
    });
    expect((await listProjects(env.db, OUTSIDER)).map((p) => p.name)).not.toContain(env.source.name);
    await expect(projectForActor(env.db, OUTSIDER, env.source.name)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(stop(env.engine, OUTSIDER, conversation.id)).rejects.toMatchObject({ code: "not_found" });

    // Control: the member reads while it is visible to the channel; private again, they do not.
    expect(await conversationRights(env.db, MEMBER, c)).toEqual({
      see: true,
      prompt: false,
      answer: { decision: false, approval: false },
    });
    await setProjectVisibility(env.db, OWNER_ACTOR, env.source.name, "private");
    const again = await loadConversation(env.engine, conversation.id);
    expect(await conversationRights(env.db, MEMBER, again)).toEqual({
      see: false,
      prompt: false,
      answer: { decision: false, approval: false },
    });
    await expect(projectForActor(env.db, MEMBER, env.source.name)).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("S-THREAD-05: a person the owner allows prompts the project and drives their own conversation and, unless its threads are the author's, others' (answering their decisions, never their approvals); disallowed, they stop", async () => {
    const { conversation } = await setUp("private");
    const BOB: Actor = { userId: "UBOB", isAdmin: false };
    await expect(projectForActor(env.db, BOB, env.source.name)).rejects.toMatchObject({ code: "not_found" });
    await setProjectPrompter(env.db, env.clock, OWNER_ACTOR, env.source.name, BOB.userId, true);
    const project = await projectForActor(env.db, BOB, env.source.name);
    expect((await listProjects(env.db, BOB)).map((p) => p.name)).toContain(env.source.name);
    const own = await startConversation(env.db, env.clock, project, "Ma tâche", BOB.userId);
    const mine = await loadConversation(env.engine, own.conversation.id);
    expect(await conversationRights(env.db, BOB, mine)).toEqual({
      see: true,
      prompt: true,
      answer: { decision: true, approval: true },
    });
    // The owner's conversation: its thread is the team's (the default), Bob carries it on and
    // answers its decisions; an approval (about the host) stays with its person and the owner.
    const owners = await loadConversation(env.engine, conversation.id);
    expect(await conversationRights(env.db, BOB, owners)).toEqual({
      see: true,
      prompt: true,
      answer: { decision: true, approval: false },
    });
    // With `--thread-prompters author` it is not Bob's to read or drive (the project is private).
    await setProjectThreadPrompters(env.db, OWNER_ACTOR, env.source.name, "author");
    const reserved = await loadConversation(env.engine, conversation.id);
    expect(await conversationRights(env.db, BOB, reserved)).toEqual({
      see: false,
      prompt: false,
      answer: { decision: false, approval: false },
    });
    expect(
      await conversationRights(env.db, BOB, await loadConversation(env.engine, own.conversation.id)),
    ).toEqual({
      see: true,
      prompt: true,
      answer: { decision: true, approval: true },
    });
    await setProjectThreadPrompters(env.db, OWNER_ACTOR, env.source.name, "prompters");

    await setProjectPrompter(env.db, env.clock, OWNER_ACTOR, env.source.name, BOB.userId, false);
    await expect(projectForActor(env.db, BOB, env.source.name)).rejects.toMatchObject({ code: "not_found" });
    expect(await conversationRights(env.db, BOB, mine)).toEqual({
      see: false,
      prompt: false,
      answer: { decision: false, approval: false },
    });
  });
});
