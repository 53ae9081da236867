import { afterEach, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import { migrate, openDatabase } from "../../../src/engine/database.js";
import {
  ACTION_TARGETS,
  CLAIMED_STATUSES,
  isTerminal,
  nextStatus,
  ORCHESTRATION_ACTIONS,
  ORCHESTRATION_TRANSITIONS,
  orchestrationActions,
  statusesAllowing,
  STATUSES,
  type OrchestrationAction,
  type OrchestrationStatus,
} from "../../../src/engine/orchestrations/machine.js";
import { moveOrchestration, transition } from "../../../src/engine/orchestrations/store.js";
import type { Orchestration } from "../../../src/engine/orchestrations/schema.js";
import { allowsMove, terminalStatuses } from "../../../src/engine/stateMachine.js";
import { testEngine } from "../../support/engine.js";
import { composeDraft, displayArgv, draftHash } from "../../../src/engine/orchestrations/draft.js";
import * as m0006 from "../../../db/migrations/0006_orchestrations.js";

describe("the orchestration state machine", () => {
  it("merging needs an approved revision, and a project's confirmation step when it asks for one", () => {
    expect(nextStatus("USER_REVIEW", "approve_revision")).toBe("AWAITING_MERGE_CONFIRMATION");
    expect(nextStatus("USER_REVIEW", "approve_and_merge")).toBe("MERGING");
    expect(statusesAllowing("confirm_merge")).toEqual(["AWAITING_MERGE_CONFIRMATION"]);
    expect(statusesAllowing("merged")).toEqual(["MERGING"]);
  });

  it("nobody acts on a step while git or tests hold it, and terminal states accept nothing", () => {
    for (const s of CLAIMED_STATUSES) {
      for (const action of ["cancel", "corrections", "verify", "approve_draft"] as const)
        expect(nextStatus(s, action), `${s} ${action}`).toBeNull();
    }
    expect(STATUSES.filter(isTerminal)).toEqual(["MERGED", "CANCELLED"]);
  });

  it("cancel is open from every state a person waits in", () => {
    expect(statusesAllowing("cancel").sort()).toEqual(
      [
        "DRAFT_REVIEW",
        "AGENT_RUNNING",
        "AGENT_FAILED",
        "AWAITING_VERIFICATION",
        "VERIFICATION_FAILED",
        "USER_REVIEW",
        "AWAITING_MERGE_CONFIRMATION",
      ].sort(),
    );
  });
});

describe("the orchestration's shared tables", () => {
  const ACTIONS = Object.keys(ORCHESTRATION_ACTIONS) as OrchestrationAction[];

  it("list every status and action; MERGED and CANCELLED are terminal", () => {
    // A table without a status's row, or an action's, does not compile (test/engine/transitionTables.test.ts).
    expect(STATUSES).toEqual([
      "DRAFT_REVIEW",
      "PREPARING",
      "AGENT_RUNNING",
      "AGENT_FAILED",
      "AWAITING_VERIFICATION",
      "VERIFYING",
      "VERIFICATION_FAILED",
      "USER_REVIEW",
      "AWAITING_MERGE_CONFIRMATION",
      "MERGING",
      "MERGED",
      "CANCELLING",
      "CANCELLED",
    ]);
    expect(ACTIONS.sort()).toEqual(Object.keys(ACTION_TARGETS).sort());
    expect(ACTIONS).toHaveLength(20);
    expect(terminalStatuses(ORCHESTRATION_TRANSITIONS)).toEqual(["MERGED", "CANCELLED"]);
    expect(orchestrationActions("MERGED")).toEqual([]);
    expect(orchestrationActions("CANCELLED")).toEqual([]);
    // No person acts while a claim holds it: only the step's outcomes, and a take-over.
    expect(orchestrationActions("MERGING")).toEqual(["merged", "merge_failed", "resume"]);
  });

  it("every move an action makes is in the transition table, and every move in the table is some action's", () => {
    const made = new Set<string>();
    for (const from of STATUSES) {
      for (const action of ACTIONS) {
        const to = nextStatus(from, action);
        if (to === null) continue;
        expect(allowsMove(ORCHESTRATION_TRANSITIONS, from, to), `${from} ${action} → ${to}`).toBe(true);
        made.add(`${from} → ${to}`);
      }
    }
    const listed = STATUSES.flatMap((from) =>
      (ORCHESTRATION_TRANSITIONS[from] as readonly OrchestrationStatus[]).map((to) => `${from} → ${to}`),
    );
    expect([...made].sort()).toEqual(listed.sort());
    expect(listed).toHaveLength(33);
    // A take-over re-enters the step it takes over.
    expect(CLAIMED_STATUSES.map((s) => nextStatus(s, "resume"))).toEqual([
      "PREPARING",
      null,
      "MERGING",
      "CANCELLING",
    ]);
  });
});

describe("the orchestration's guarded moves", () => {
  let env: Awaited<ReturnType<typeof testEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  async function insert(id: string, status: OrchestrationStatus, claimToken: string | null = null) {
    const row: Orchestration = {
      id,
      project_id: env!.project.id,
      owner_id: "UOWNER",
      name: id,
      request: "r",
      acceptance_criteria: "[]",
      tests: "[]",
      engine: "codex",
      status,
      draft: "d",
      draft_version: 1,
      draft_hash: "h",
      draft_feedback: "[]",
      base_branch: null,
      base_revision: null,
      branch: null,
      worktree_path: null,
      conversation_id: null,
      queue_id: null,
      verified_revision: null,
      approved_revision: null,
      merged_revision: null,
      verification: null,
      last_error: null,
      claim_token: claimToken,
      claim_expires_at: null,
      created_at: 0,
      updated_at: 0,
    };
    await env!.db.insertInto("orchestrations").values(row).execute();
  }
  const statusOf = async (id: string) =>
    (
      await env!.db
        .selectFrom("orchestrations")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).status;

  it("a move from a status the row is no longer in changes nothing; from the status it is in, it moves", async () => {
    env = await testEngine();
    await insert("merged", "MERGED");
    await insert("review", "USER_REVIEW");
    // Read as USER_REVIEW, merged meanwhile: the guarded write matches nothing.
    expect(await moveOrchestration(env.db, "merged", "CANCELLING", ["USER_REVIEW"])).toBe(false);
    expect(await statusOf("merged")).toBe("MERGED");
    // A move the table does not have is a defect, not a lost race.
    await expect(moveOrchestration(env.db, "merged", "CANCELLING", ["MERGED"])).rejects.toThrow(
      "orchestration: MERGED → CANCELLING is not a transition",
    );
    // Positive control: the same write from the status the row is in.
    expect(await moveOrchestration(env.db, "review", "CANCELLING", ["USER_REVIEW"])).toBe(true);
    expect(await statusOf("review")).toBe("CANCELLING");
  });

  it("a step records its outcome only while it holds the claim; the holder's outcome moves it", async () => {
    env = await testEngine();
    await insert("taken", "MERGING", "new-holder");
    await insert("held", "MERGING", "mine");
    const now = env.clock.now();
    expect(
      await transition(env.db, now, { id: "taken", status: "MERGING" }, "merged", { claimToken: "mine" }),
    ).toBeNull();
    expect(await statusOf("taken")).toBe("MERGING");
    // An action the status does not allow is refused before any write.
    expect(
      await transition(env.db, now, { id: "held", status: "MERGING" }, "cancel", { claimToken: "mine" }),
    ).toBeNull();
    expect(await statusOf("held")).toBe("MERGING");
    expect(
      await transition(env.db, now, { id: "held", status: "MERGING" }, "merged", { claimToken: "mine" }),
    ).toEqual({
      status: "MERGED",
      claimToken: null,
    });
    expect(await statusOf("held")).toBe("MERGED");
    // Read as MERGING again (a second worker's stale read): nothing moves twice.
    expect(
      await transition(env.db, now, { id: "held", status: "MERGING" }, "merged", { claimToken: "mine" }),
    ).toBeNull();
    const events = await env.db.selectFrom("orchestration_events").select("orchestration_id").execute();
    expect(events).toEqual([]); // no event asked for; the outbox got one update, below
    const updates = await env.db
      .selectFrom("outbox")
      .select("kind")
      .where("kind", "=", "orchestration.updated")
      .execute();
    expect(updates).toHaveLength(1);
  });
});

describe("drafts", () => {
  it("a draft names the request, the criteria and the tests, and its hash changes with its version", () => {
    const d = composeDraft("en", {
      name: "X",
      request: "Do it.",
      criteria: ["works"],
      tests: [["python3", "-c", "print('a b')"]],
      feedback: ["more proof"],
    });
    expect(d).toContain("Do it.");
    expect(d).toContain("- works");
    expect(d).toContain(`python3 -c 'print('\\''a b'\\'')'`);
    expect(d).toContain("more proof");
    expect(draftHash(1, d)).not.toBe(draftHash(2, d));
    expect(displayArgv(["a", "b c"])).toBe("a 'b c'");
  });
});

describe("migration 0006", () => {
  it("is idempotent: running it again on a migrated database changes nothing", async () => {
    const db = openDatabase(":memory:");
    await migrate(db as unknown as Kysely<unknown>);
    await m0006.up(db as unknown as Kysely<unknown>);
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["orchestrations", "orchestration_events"]));
    await db.destroy();
  });
});
