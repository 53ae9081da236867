import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { answerDecision, listDecisions } from "../../../src/engine/coordination/decisions.js";
import {
  createSpecialist,
  getSpecialist,
  listSpecialists,
  rebuildSpecialist,
} from "../../../src/engine/coordination/specialists.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { completedOutput, coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

type Env = Awaited<ReturnType<typeof coordinationEnv>>;

async function activeSpecialist(env: Env, name: string, description: string, capability: string) {
  const s = await createSpecialist(env.engine, OWNER_ACTOR, {
    name,
    description,
    capabilities: [capability],
  });
  await completedOutput(
    env.db,
    s.bootstrap_conversation_id!,
    s.bootstrap_queue_id!,
    `CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["${capability}"]}`,
  );
  await env.engine.tick();
  return getSpecialist(env.db, OWNER_ACTOR, s.id);
}

/** A source conversation whose agent called a specialist; the outcome is recorded through the hook. */
async function sourceCalling(env: Env, call: string) {
  const { conversation, item } = await startConversation(
    env.db,
    env.clock,
    env.source,
    "Refonds la page",
    OWNER,
  );
  await completedOutput(env.db, conversation.id, item.id, call);
  await writeTransaction(env.db, (trx) => env.engine.hook(trx, conversation.id, item.id, "done", call, null));
  return { conversation, item };
}

const delegationOf = (env: Env, sourceQueueId: string) =>
  env.db
    .selectFrom("specialist_delegations")
    .selectAll()
    .where("source_queue_id", "=", sourceQueueId)
    .executeTakeFirstOrThrow();
const latestResult = (env: Env, conversationId: string) =>
  env.db
    .selectFrom("prompt_queue")
    .selectAll()
    .where("conversation_id", "=", conversationId)
    .where("origin_kind", "=", "specialist_result")
    .orderBy("seq", "desc")
    .executeTakeFirst();

describe("specialists and delegations", () => {
  let env: Env;
  afterEach(async () => env?.close());

  it("S-CO-03: a specialist builds itself (BUILDING, restricted workspace, bootstrap), then READY makes it ACTIVE with merged capabilities", async () => {
    env = await coordinationEnv();
    const s = await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio Interface",
      description: "Conçoit et audite les interfaces mobiles PWA des projets.",
      capabilities: ["design.interface"],
    });
    expect(s).toMatchObject({ status: "BUILDING", full_access: false });
    expect(fs.statSync(path.join(env.config.dataDir, "specialists")).isDirectory()).toBe(true);
    expect(s.workspace.startsWith(path.join(env.config.dataDir, "specialists"))).toBe(true);
    const project = await env.db
      .selectFrom("projects")
      .selectAll()
      .where("id", "=", s.project_id)
      .executeTakeFirstOrThrow();
    expect(project.full_access).toBe(0);
    const boot = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", s.bootstrap_queue_id!)
      .executeTakeFirstOrThrow();
    expect(boot.origin_kind).toBe("specialist_bootstrap");
    expect(boot.content).toContain("CODEXPI_SPECIALIST_READY");
    await completedOutput(
      env.db,
      s.bootstrap_conversation_id!,
      s.bootstrap_queue_id!,
      'CODEXPI_SPECIALIST_READY {"summary":"Prêt","capabilities":["design.ux"]}',
    );
    await env.engine.tick();
    const ready = await getSpecialist(env.db, OWNER_ACTOR, s.id);
    expect(ready.status).toBe("ACTIVE");
    expect(ready.capabilities).toEqual(expect.arrayContaining(["design.interface", "design.ux"]));
  });

  it("S-CO-04: a specialist call becomes a delegation started by the tick, and its result returns to the source as specialist_result", async () => {
    env = await coordinationEnv();
    await activeSpecialist(
      env,
      "Studio Interface",
      "Conçoit et audite les interfaces mobiles PWA des projets.",
      "design.interface",
    );
    const { conversation, item } = await sourceCalling(
      env,
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Préparer la maquette mobile","context":"Respecter le thème crème"}',
    );
    expect((await delegationOf(env, item.id)).status).toBe("PENDING");
    await env.engine.tick();
    const delegation = await delegationOf(env, item.id);
    expect(delegation.status).toBe("RUNNING");
    const task = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", delegation.queue_id!)
      .executeTakeFirstOrThrow();
    expect(task.origin_kind).toBe("delegation");
    expect(task.content).toContain("Préparer la maquette mobile");
    await completedOutput(
      env.db,
      delegation.specialist_conversation_id!,
      delegation.queue_id!,
      "Maquette prête dans output/mobile-interface.svg",
    );
    await env.engine.tick();
    expect((await delegationOf(env, item.id)).status).toBe("COMPLETED");
    expect((await latestResult(env, conversation.id))?.content).toContain("mobile-interface.svg");
    await env.engine.tick(); // idempotent
    expect(
      await env.db
        .selectFrom("prompt_queue")
        .select("id")
        .where("conversation_id", "=", conversation.id)
        .where("origin_kind", "=", "specialist_result")
        .execute(),
    ).toHaveLength(1);
  });

  it("S-CO-05: a FAILED specialist rebuilds: BUILDING, error cleared, new bootstrap conversation, same workspace", async () => {
    env = await coordinationEnv();
    const s = await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio Logo",
      description: "Conçoit des identités visuelles et des logos cohérents pour les projets.",
      capabilities: ["design.logo"],
    });
    await env.db
      .updateTable("specialist_agents")
      .set({ status: "FAILED", error: "incident de construction" })
      .where("id", "=", s.id)
      .execute();
    const rebuilt = await rebuildSpecialist(env.engine, OWNER_ACTOR, s.id);
    expect(rebuilt).toMatchObject({
      status: "BUILDING",
      error: "",
      workspace: s.workspace,
      project_id: s.project_id,
    });
    expect(rebuilt.bootstrap_conversation_id).not.toBe(s.bootstrap_conversation_id);
    await expect(rebuildSpecialist(env.engine, OWNER_ACTOR, s.id)).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(
      rebuildSpecialist(env.engine, { userId: "USTRANGER", isAdmin: false }, s.id),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("S-CO-06: two specialists collaborate: the parent waits for its child, resumes in its own conversation, and its result reaches the source", async () => {
    env = await coordinationEnv();
    await activeSpecialist(
      env,
      "Studio Interface",
      "Conçoit les interfaces et coordonne leur identité visuelle.",
      "design.interface",
    );
    await activeSpecialist(
      env,
      "Studio Logo",
      "Conçoit les logos et systèmes d’identité pour les interfaces.",
      "design.logo",
    );
    const { conversation, item } = await sourceCalling(
      env,
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Préparer la direction UI","context":"Coordonner le logo"}',
    );
    await env.engine.tick();
    const parent = await delegationOf(env, item.id);
    const secondCall =
      'CODEXPI_SPECIALIST_CALL {"capability":"design.logo","task":"Produire le symbole de marque","context":"Doit fonctionner avec la direction UI"}';
    await completedOutput(env.db, parent.specialist_conversation_id!, parent.queue_id!, secondCall);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, parent.specialist_conversation_id!, parent.queue_id!, "done", secondCall, null),
    );
    expect((await delegationOf(env, item.id)).status).toBe("WAITING_CHILD");
    await env.engine.tick();
    const child = await env.db
      .selectFrom("specialist_delegations")
      .selectAll()
      .where("parent_delegation_id", "=", parent.id)
      .executeTakeFirstOrThrow();
    expect(child).toMatchObject({ status: "RUNNING", depth: 2 });
    await completedOutput(
      env.db,
      child.specialist_conversation_id!,
      child.queue_id!,
      "Logo prêt dans output/logo.svg",
    );
    await env.engine.tick();
    const resumed = await delegationOf(env, item.id);
    expect(resumed.status).toBe("RUNNING");
    const resumeItem = await env.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("id", "=", resumed.queue_id!)
      .executeTakeFirstOrThrow();
    expect(resumeItem.conversation_id).toBe(parent.specialist_conversation_id); // its own conversation
    expect(resumeItem.content).toContain("logo.svg");
    await completedOutput(
      env.db,
      parent.specialist_conversation_id!,
      resumed.queue_id!,
      "Interface et logo coordonnés dans output/ui-kit.svg",
    );
    await env.engine.tick();
    expect((await delegationOf(env, item.id)).status).toBe("COMPLETED");
    expect((await latestResult(env, conversation.id))?.content).toContain("ui-kit.svg");
  });

  it("S-CO-07: a decision inside a specialist: the delegation waits, the answer resumes it, its completion reaches the source", async () => {
    env = await coordinationEnv();
    await activeSpecialist(
      env,
      "Studio Interface",
      "Conçoit les interfaces mobiles et leurs règles d’intégration.",
      "design.interface",
    );
    const { conversation, item } = await sourceCalling(
      env,
      'CODEXPI_SPECIALIST_CALL {"capability":"design.interface","task":"Préparer deux directions visuelles","context":"PWA mobile"}',
    );
    await env.engine.tick();
    const delegation = await delegationOf(env, item.id);
    const marker =
      'CODEXPI_DECISION {"title":"Direction","question":"Quelle direction retenir ?","options":[{"id":"calme","label":"Calme"},{"id":"dense","label":"Dense"}],"allow_multiple":false,"allow_custom":true}';
    await completedOutput(env.db, delegation.specialist_conversation_id!, delegation.queue_id!, marker);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(
        trx,
        delegation.specialist_conversation_id!,
        delegation.queue_id!,
        "done",
        marker,
        null,
      ),
    );
    expect((await delegationOf(env, item.id)).status).toBe("WAITING_CHILD");
    const [decision] = await listDecisions(env.db, OWNER_ACTOR);
    expect(decision!.user_id).toBe(OWNER); // the person at the root of the chain
    const answered = await answerDecision(env.db, env.clock, "fr", OWNER_ACTOR, decision!.id, ["calme"], "");
    const resumed = await delegationOf(env, item.id);
    expect(resumed).toMatchObject({ status: "RUNNING", queue_id: answered.response_queue_id });
    await completedOutput(
      env.db,
      delegation.specialist_conversation_id!,
      answered.response_queue_id!,
      "Direction calme préparée dans output/interface-calme.svg",
    );
    await env.engine.tick();
    expect((await delegationOf(env, item.id)).status).toBe("COMPLETED");
    expect((await latestResult(env, conversation.id))?.content).toContain("interface-calme.svg");
  });

  it("S-CO-09: a specialist needs a name, a real sentence and dotted capabilities; the listing shows it", async () => {
    env = await coordinationEnv();
    const bad = [
      {
        name: "X",
        description: "Conçoit des interfaces PWA accessibles et responsive pour les projets.",
        capabilities: ["design.interface"],
      },
      { name: "Studio", description: "interfaces", capabilities: ["design.interface"] },
      {
        name: "Studio",
        description: "Conçoit des interfaces PWA accessibles et responsive pour les projets.",
        capabilities: ["Design Interface"],
      },
      {
        name: "Studio",
        description: "Conçoit des interfaces PWA accessibles et responsive pour les projets.",
        capabilities: [],
      },
    ];
    for (const input of bad)
      await expect(createSpecialist(env.engine, OWNER_ACTOR, input)).rejects.toMatchObject({
        code: "invalid",
      });
    expect(await listSpecialists(env.db, OWNER_ACTOR)).toHaveLength(0);
    await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio Interface",
      description: "Conçoit des interfaces PWA accessibles et responsive pour les projets.",
      capabilities: ["design.interface", "design.ux"],
    });
    const listed = await listSpecialists(env.db, OWNER_ACTOR);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      name: "Studio Interface",
      capabilities: ["design.interface", "design.ux"],
      status: "BUILDING",
    });
    expect(await listSpecialists(env.db, { userId: "USTRANGER", isAdmin: false })).toHaveLength(0);
  });

  it("a call nobody can serve fails and tells the source; a chain deeper than three is refused", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await sourceCalling(
      env,
      'CODEXPI_SPECIALIST_CALL {"capability":"music.compose","task":"Composer un jingle","context":""}',
    );
    await env.engine.tick();
    expect((await delegationOf(env, item.id)).status).toBe("FAILED");
    expect((await latestResult(env, conversation.id))?.content).toContain("music.compose");
  });

  it("a specialist at depth 3 calling another is refused at once, and told so", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "profond", OWNER);
    await env.db
      .insertInto("specialist_delegations")
      .values({
        id: "deep",
        source_conversation_id: conversation.id,
        source_queue_id: "elsewhere",
        parent_delegation_id: null,
        specialist_id: null,
        capability: "a.b",
        task: "t",
        context: "",
        depth: 3,
        status: "RUNNING",
        specialist_conversation_id: conversation.id,
        queue_id: item.id,
        result: null,
        error: null,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    const call =
      'CODEXPI_SPECIALIST_CALL {"capability":"design.logo","task":"Encore un niveau","context":""}';
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", call, null),
    );
    const refused = await delegationOf(env, item.id);
    expect(refused).toMatchObject({ status: "FAILED", depth: 4 });
    expect(
      (
        await env.db
          .selectFrom("specialist_delegations")
          .select("status")
          .where("id", "=", "deep")
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("RUNNING");
    expect((await latestResult(env, conversation.id))?.content).toContain("au plus 3");
  });
});
