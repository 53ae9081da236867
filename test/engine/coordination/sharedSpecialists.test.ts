import { afterEach, describe, expect, it } from "vitest";
import { conversationRights } from "../../../src/engine/projects/access.js";
import { ask, followUp, loadConversation } from "../../../src/engine/conversations/conversationService.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { queueStatus } from "../../../src/engine/dispatch/status.js";
import { listDecisions } from "../../../src/engine/coordination/decisions.js";
import { overview } from "../../../src/engine/coordination/overview.js";
import { createSpecialist, getSpecialist } from "../../../src/engine/coordination/specialists.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

type Env = Awaited<ReturnType<typeof coordinationEnv>>;

const ADMIN = { userId: "UADMIN", isAdmin: true };
const OTHER = { userId: "UOTHER", isAdmin: false };
const TASK = "Auditer le module de paiement confidentiel";

/** A shared specialist (created by an admin, no owner), READY. */
async function sharedSpecialist(env: Env) {
  const s = await createSpecialist(
    env.engine,
    ADMIN,
    {
      name: "Studio Partagé",
      description: "Audite le code des projets qui lui délèguent une tâche.",
      capabilities: ["code.audit"],
    },
    { shared: true },
  );
  await completedOutput(
    env.db,
    s.bootstrap_conversation_id!,
    s.bootstrap_queue_id!,
    'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["code.audit"]}',
  );
  await env.engine.tick();
  return getSpecialist(env.db, ADMIN, s.id);
}

/** A conversation of `project` whose agent delegates TASK; the tick starts the delegation. */
async function delegate(env: Env, projectId: string, user: string) {
  const project = await env.db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", projectId)
    .executeTakeFirstOrThrow();
  const { conversation, item } = await startConversation(
    env.db,
    env.clock,
    project,
    "Vérifie le paiement",
    user,
  );
  const call = `CODEXPI_SPECIALIST_CALL {"capability":"code.audit","task":"${TASK}","context":"Clés dans config/secret.ts"}`;
  await completedOutput(env.db, conversation.id, item.id, call);
  await writeTransaction(env.db, (trx) => env.engine.hook(trx, conversation.id, item.id, "done", call, null));
  await env.engine.tick();
  return env.db
    .selectFrom("specialist_delegations")
    .selectAll()
    .where("source_queue_id", "=", item.id)
    .executeTakeFirstOrThrow();
}

const runningTitles = async (env: Env, actor: { userId: string; isAdmin: boolean }) =>
  (await queueStatus(env.engine, actor)).running.map((r) => r.title);

// DESIGN "Shared specialists": they serve every conversation, but a delegation's texts are visible
// only to those who can see the delegating conversation, and admins; only admins prompt them.
describe("shared specialists: seen through the delegating conversation, prompted by admins only", () => {
  let env: Env;
  afterEach(async () => env?.close());

  it("a delegation's task is listed for the delegator and admins, never for anyone else", async () => {
    env = await coordinationEnv();
    await sharedSpecialist(env);
    const d = await delegate(env, env.source.id, OWNER);
    expect(d.status).toBe("RUNNING");
    await env.db
      .updateTable("prompt_queue")
      .set({ status: "running", started_at: env.clock.now() })
      .where("id", "=", d.queue_id!)
      .execute();
    expect(await runningTitles(env, OWNER_ACTOR)).toContain(TASK);
    expect(await runningTitles(env, ADMIN)).toContain(TASK);
    expect(await runningTitles(env, OTHER)).not.toContain(TASK);
    expect(JSON.stringify(await overview(env.db, OTHER))).not.toContain(TASK);

    const c = await loadConversation(env.engine, d.specialist_conversation_id!);
    expect(await conversationRights(env.db, OTHER, c)).toMatchObject({ see: false, prompt: false });
    expect(await conversationRights(env.db, OWNER_ACTOR, c)).toMatchObject({ see: true, prompt: false });
    expect(await conversationRights(env.db, ADMIN, c)).toMatchObject({ see: true, prompt: true });
  });

  it("a question a shared specialist asks reaches the delegator only; others list nothing", async () => {
    env = await coordinationEnv();
    await sharedSpecialist(env);
    const d = await delegate(env, env.source.id, OWNER);
    const marker = `CODEXPI_DECISION {"title":"${TASK}","question":"Publier le rapport ?","options":[{"id":"oui","label":"Oui"}]}`;
    await completedOutput(env.db, d.specialist_conversation_id!, d.queue_id!, marker);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, d.specialist_conversation_id!, d.queue_id!, "done", marker, null),
    );
    expect((await listDecisions(env.db, OWNER_ACTOR)).map((x) => x.title)).toEqual([TASK]);
    expect((await listDecisions(env.db, ADMIN)).map((x) => x.title)).toEqual([TASK]);
    expect(await listDecisions(env.db, OTHER)).toEqual([]);
  });

  it("nobody but an admin prompts a shared specialist: by name, or in one of its conversations", async () => {
    env = await coordinationEnv();
    const s = await sharedSpecialist(env);
    const d = await delegate(env, env.source.id, OWNER);
    const name = (
      await env.db
        .selectFrom("projects")
        .select("name")
        .where("id", "=", s.project_id)
        .executeTakeFirstOrThrow()
    ).name;
    for (const actor of [OWNER_ACTOR, OTHER])
      await expect(ask(env.engine, actor, name, "Donne-moi les clés")).rejects.toMatchObject({
        code: "not_found",
        reason: "project_not_found",
      });
    const c = await loadConversation(env.engine, d.specialist_conversation_id!);
    await expect(followUp(env.engine, OWNER_ACTOR, c, "Et les clés ?")).rejects.toMatchObject({
      code: "forbidden",
      reason: "specialist_shared_admins_only",
    });
    await expect(followUp(env.engine, OTHER, c, "Et les clés ?")).rejects.toMatchObject({
      code: "not_found",
      reason: "conversation_not_found",
    });
    const prompts = await env.db
      .selectFrom("prompt_queue")
      .select("content")
      .where("content", "like", "%clés ?%")
      .execute();
    expect(prompts).toHaveLength(0);
    // Positive controls: an admin may do both; the delegator's own project takes their prompts.
    expect((await ask(env.engine, ADMIN, name, "État du poste ?")).project.id).toBe(s.project_id);
    expect((await followUp(env.engine, ADMIN, c, "Résume ton audit.")).item.conversation_id).toBe(
      c.conversation.id,
    );
    expect((await ask(env.engine, OWNER_ACTOR, env.source.name, "bonjour")).project.id).toBe(env.source.id);
  });

  it("a shared specialist still serves everyone's agents, and each delegator sees only their own delegation", async () => {
    env = await coordinationEnv();
    await sharedSpecialist(env);
    const others = await env.addProject({ name: "Projet autre", ownerId: OTHER.userId });
    const mine = await delegate(env, env.source.id, OWNER);
    const theirs = await delegate(env, others.id, OTHER.userId);
    expect([mine.status, theirs.status]).toEqual(["RUNNING", "RUNNING"]);
    const see = async (actor: typeof OTHER, id: string) =>
      (await conversationRights(env.db, actor, await loadConversation(env.engine, id))).see;
    expect(await see(OTHER, theirs.specialist_conversation_id!)).toBe(true);
    expect(await see(OTHER, mine.specialist_conversation_id!)).toBe(false);
    expect(await see(OWNER_ACTOR, theirs.specialist_conversation_id!)).toBe(false);
    // The specialist's bootstrap conversation was started by no delegation: admins only.
    const boot = (
      await env.db
        .selectFrom("specialist_agents")
        .select("bootstrap_conversation_id")
        .executeTakeFirstOrThrow()
    ).bootstrap_conversation_id!;
    expect(await see(OWNER_ACTOR, boot)).toBe(false);
    expect(await see(ADMIN, boot)).toBe(true);
  });
});
