import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import {
  moveDelegation,
  moveIncident,
  moveSpecialist,
} from "../../../src/engine/coordination/coordinationStore.js";
import {
  DECISION_TRANSITIONS,
  canDecision,
  decisionActions,
} from "../../../src/engine/coordination/decisionMachine.js";
import { moveDecision } from "../../../src/engine/coordination/decisionStore.js";
import {
  DELEGATION_TRANSITIONS,
  delegationActions,
} from "../../../src/engine/coordination/delegationMachine.js";
import {
  INCIDENT_TRANSITIONS,
  canIncident,
  incidentActions,
} from "../../../src/engine/coordination/incidentMachine.js";
import {
  SPECIALIST_TRANSITIONS,
  canSpecialist,
  specialistActions,
} from "../../../src/engine/coordination/specialistMachine.js";
import { newId } from "../../../src/engine/ids.js";
import { coordinationEnv, OWNER } from "../../support/coordination.js";

describe("coordination machines (pure)", () => {
  it("a decision is closed once, answered or cancelled; only an open one takes an answer", () => {
    expect(DECISION_TRANSITIONS).toEqual({ OPEN: ["ANSWERED", "CANCELLED"], ANSWERED: [], CANCELLED: [] });
    expect(decisionActions("OPEN")).toEqual(["answer", "cancel"]);
    expect(decisionActions("ANSWERED")).toEqual([]);
    expect(canDecision("CANCELLED", "answer")).toBe(false);
  });

  it("an incident goes to repair, then resolved or failed; a person retries an open or failed one, the button shows on a failed one; an open or failed one recovers (not one a repair holds)", () => {
    expect(INCIDENT_TRANSITIONS).toEqual({
      OPEN: ["REPAIRING", "RESOLVED"],
      REPAIRING: ["RESOLVED", "FAILED"],
      RESOLVED: [],
      FAILED: ["RESOLVED"],
    });
    expect(incidentActions("OPEN")).toEqual(["repair", "retry", "recover"]);
    expect(incidentActions("FAILED")).toEqual(["retry", "offer_retry", "recover"]);
    expect(incidentActions("REPAIRING")).toEqual([]);
    expect(canIncident("RESOLVED", "retry")).toBe(false);
  });

  it("a specialist builds, then serves; a failed build can start again", () => {
    expect(SPECIALIST_TRANSITIONS).toEqual({
      BUILDING: ["ACTIVE", "FAILED"],
      ACTIVE: [],
      FAILED: ["BUILDING"],
    });
    expect(specialistActions("FAILED")).toEqual(["rebuild"]);
    expect(specialistActions("ACTIVE")).toEqual(["serve"]);
    expect(canSpecialist("BUILDING", "rebuild")).toBe(false);
  });

  it("a delegation starts, may wait for a child and resume, and ends completed or failed", () => {
    expect(DELEGATION_TRANSITIONS).toEqual({
      PENDING: ["RUNNING", "FAILED"],
      RUNNING: ["WAITING_CHILD", "COMPLETED", "FAILED"],
      WAITING_CHILD: ["RUNNING"],
      COMPLETED: [],
      FAILED: [],
    });
    expect(delegationActions("RUNNING")).toEqual(["wait_child", "finish"]);
    expect(delegationActions("COMPLETED")).toEqual([]);
  });
});

describe("coordination guarded moves", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  async function item() {
    return startConversation(env.db, env.clock, env.source, "tâche", OWNER);
  }

  it("a decision moves from OPEN once: a cancelled one is not answered (control: an open one is)", async () => {
    env = await coordinationEnv();
    const { conversation, item: q } = await item();
    const insert = async (id: string, queueId: string) =>
      env.db
        .insertInto("decisions")
        .values({
          id,
          conversation_id: conversation.id,
          queue_id: queueId,
          user_id: OWNER,
          title: "t",
          question: "q",
          options: "[]",
          allow_multiple: 0,
          allow_custom: 0,
          status: "OPEN",
          answer: null,
          answered_by: null,
          response_queue_id: null,
          created_at: 1,
          answered_at: null,
        })
        .execute();
    await insert("d1", q.id);
    expect(await moveDecision(env.db, "d1", "CANCELLED")).toBe(true);
    expect(await moveDecision(env.db, "d1", "ANSWERED", { answered_by: OWNER })).toBe(false);
    expect(
      await env.db
        .selectFrom("decisions")
        .select(["status", "answered_by"])
        .where("id", "=", "d1")
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "CANCELLED", answered_by: null });
    const other = await item();
    await insert("d2", other.item.id);
    expect(await moveDecision(env.db, "d2", "ANSWERED", { answered_by: OWNER })).toBe(true);
    await expect(moveDecision(env.db, "d2", "OPEN", {}, ["ANSWERED"])).rejects.toThrow("not a transition");
  });

  it("an incident under repair is not retried (control: a failed one is)", async () => {
    env = await coordinationEnv();
    const { conversation, item: q } = await item();
    const id = newId();
    await env.db
      .insertInto("incidents")
      .values({
        id,
        conversation_id: conversation.id,
        queue_id: q.id,
        project_id: env.source.id,
        user_id: OWNER,
        status: "REPAIRING",
        error: "x",
        error_code: null,
        auto_repair: 1,
        repair_project_id: null,
        repair_conversation_id: null,
        repair_queue_id: null,
        resolution: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    expect(await moveIncident(env.db, id, "RESOLVED", {}, ["OPEN", "FAILED"])).toBe(false);
    expect(await moveIncident(env.db, id, "FAILED")).toBe(true);
    expect(await moveIncident(env.db, id, "RESOLVED", {}, ["OPEN", "FAILED"])).toBe(true);
    expect(
      (await env.db.selectFrom("incidents").select("status").where("id", "=", id).executeTakeFirstOrThrow())
        .status,
    ).toBe("RESOLVED");
  });

  it("an active specialist is not rebuilt, nor moved by a stale bootstrap (control: a failed one is rebuilt)", async () => {
    env = await coordinationEnv();
    const id = newId();
    await env.db
      .insertInto("specialist_agents")
      .values({
        id,
        name: "S",
        description: "d",
        capabilities: "[]",
        summary: null,
        status: "BUILDING",
        error: "",
        owner_id: OWNER,
        project_id: env.source.id,
        bootstrap_conversation_id: null,
        bootstrap_queue_id: "q1",
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    expect(await moveSpecialist(env.db, id, "ACTIVE", {}, { bootstrapQueueId: "q0" })).toBe(false); // another bootstrap's outcome
    expect(await moveSpecialist(env.db, id, "ACTIVE", {}, { bootstrapQueueId: "q1" })).toBe(true);
    expect(await moveSpecialist(env.db, id, "BUILDING")).toBe(false); // ACTIVE is terminal
    await env.db.updateTable("specialist_agents").set({ status: "FAILED" }).where("id", "=", id).execute();
    expect(await moveSpecialist(env.db, id, "BUILDING")).toBe(true);
  });

  it("a completed delegation does not resume; a waiting one does (control), and a stale item moves nothing", async () => {
    env = await coordinationEnv();
    const { item: q } = await item();
    const id = newId();
    await env.db
      .insertInto("specialist_delegations")
      .values({
        id,
        source_conversation_id: q.conversation_id,
        source_queue_id: q.id,
        parent_delegation_id: null,
        specialist_id: null,
        capability: "c",
        task: "t",
        context: "",
        depth: 1,
        status: "RUNNING",
        specialist_conversation_id: null,
        queue_id: "q1",
        result: null,
        error: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    expect(await moveDelegation(env.db, { id, queueId: "q0" }, "COMPLETED", {}, ["RUNNING"])).toBe(0);
    expect(await moveDelegation(env.db, { id }, "WAITING_CHILD")).toBe(1);
    expect(await moveDelegation(env.db, { id }, "RUNNING", { queue_id: "q1" }, ["WAITING_CHILD"])).toBe(1);
    expect(await moveDelegation(env.db, { id, queueId: "q1" }, "COMPLETED", {}, ["RUNNING"])).toBe(1);
    expect(await moveDelegation(env.db, { id }, "RUNNING", {}, ["WAITING_CHILD"])).toBe(0);
    expect(
      (
        await env.db
          .selectFrom("specialist_delegations")
          .select("status")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("COMPLETED");
  });
});
