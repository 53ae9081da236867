/**
 * Finding 3: full access used to be chosen from a queue item's origin, so a decision answer or a
 * specialist result ran an orchestration's or the self-repair agent's next turn unsandboxed.
 * Now one function decides from the conversation's purpose; the table below goes through every
 * origin × purpose × project flag on real rows, and an end-to-end check runs the real Codex.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createConversation,
  enqueue,
  startConversation,
} from "../../../src/engine/conversations/conversations.js";
import { PRIORITY, type OriginKind } from "../../../src/engine/conversations/priorities.js";
import { SPECIALIST_GROUP } from "../../../src/engine/projects/index.js";
import { fullAccessGranted, purposeOf } from "../../../src/engine/worker/sandboxPolicy.js";
import { FORK_BRANCH_PREFIX } from "../../../src/engine/forge/index.js";
import { sandboxFor, type AgentPurpose } from "../../../src/engine/isolation/sandboxMode.js";
import { testEngine } from "../../support/engine.js";
import { codexEngine, finished } from "../../support/codexEngine.js";
import { functionCallOutputs } from "../../support/fakeModel.js";
import { jailAvailable } from "../../support/jail.js";

const ORIGINS = Object.keys(PRIORITY) as OriginKind[];
const PURPOSES: AgentPurpose[] = ["conversation", "run", "orchestration", "specialist", "self_repair"];
let t: Awaited<ReturnType<typeof testEngine>> | undefined;
let e: Awaited<ReturnType<typeof codexEngine>> | undefined;

afterEach(async () => {
  await t?.close();
  await e?.close();
  t = e = undefined;
});

/** A conversation of each purpose in a project with the given flag, made the way the engine makes them. */
async function conversationFor(
  env: NonNullable<typeof t>,
  purpose: AgentPurpose,
  fullAccess: boolean,
  n: number,
) {
  const role = purpose === "self_repair" ? "self" : purpose === "run" && n % 2 === 0 ? "master" : "project";
  const project = await env.addProject({
    name: `${purpose}-${fullAccess}-${n}`,
    ownerId: "UOWNER",
    fullAccess,
    role: role as never,
  });
  if (purpose === "specialist")
    await env.db
      .updateTable("projects")
      .set({ execution_group: SPECIALIST_GROUP })
      .where("id", "=", project.id)
      .execute();
  const c = await createConversation(env.db, env.clock, project.id, purpose, "UOWNER");
  const now = env.clock.now();
  if (purpose === "orchestration") {
    await env.db
      .insertInto("orchestrations")
      .values({
        id: `o-${n}-${fullAccess}`,
        project_id: project.id,
        name: "o",
        request: "r",
        draft: "{}",
        draft_hash: "h",
        conversation_id: c.id,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  }
  if (purpose === "run" && role === "project") {
    // A run stage's conversation in an ordinary project, found through its step row.
    await env.db
      .insertInto("remediation_runs")
      .values({
        id: `r-${n}-${fullAccess}`,
        owner_id: "UOWNER",
        status: "COMPLETED",
        plan: "{}",
        master_project_id: project.id,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    await env.db
      .insertInto("remediation_step_runs")
      .values({
        id: `s-${n}-${fullAccess}`,
        run_id: `r-${n}-${fullAccess}`,
        step_id: "1",
        position: 1,
        title: "t",
        risk: "low",
        target: "x",
        project_id: project.id,
        prompt: "p",
        conversation_id: c.id,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  }
  return {
    project: await env.db
      .selectFrom("projects")
      .selectAll()
      .where("id", "=", project.id)
      .executeTakeFirstOrThrow(),
    conversation: c,
  };
}

describe("full access is decided by the conversation's purpose, never by an item's origin", () => {
  it("every origin × purpose × project flag: only plain conversations of a full-access project run unsandboxed", async () => {
    t = await testEngine();
    let n = 0;
    const seen: string[] = [];
    for (const purpose of PURPOSES) {
      for (const flag of [false, true]) {
        for (const variant of purpose === "run" ? [0, 1] : [0]) {
          n += 1;
          const { project, conversation } = await conversationFor(t, purpose, flag, n * 2 + variant);
          for (const origin of ORIGINS) {
            // The item is really queued with that origin; the decision reads rows, not the item.
            await enqueue(t.db, t.clock, conversation.id, `turn from ${origin}`, { origin });
            const mode = sandboxFor(
              await purposeOf(t.db, conversation.id, project),
              await fullAccessGranted(t.db, conversation.id, project),
            );
            expect(await purposeOf(t.db, conversation.id, project)).toBe(purpose);
            expect(mode, `${purpose} × ${origin} × full_access=${flag}`).toBe(
              purpose === "conversation" && flag ? "full_access" : "restricted",
            );
            seen.push(`${purpose}/${origin}/${flag}`);
          }
          // At most one master and one self project may exist: retire this one before the next.
          await t.db.updateTable("projects").set({ role: "project" }).where("id", "=", project.id).execute();
        }
      }
    }
    expect(new Set(seen).size).toBe(PURPOSES.length * ORIGINS.length * 2);
  });

  it("S-FORGE-67: a plain conversation of a full-access project whose lane holds a fork's pull request keeps Codex's sandbox; the same conversation in a lane from the project's own branch does not (the control)", async () => {
    t = await testEngine();
    const env = t;
    const project = await env.addProject({ name: "forked", ownerId: "UOWNER", fullAccess: true });
    const modeIn = async (base: string | null) => {
      const c = await createConversation(env.db, env.clock, project.id, "review", "UOWNER");
      const now = env.clock.now();
      await env.db
        .insertInto("lanes")
        .values({
          conversation_id: c.id,
          project_id: project.id,
          path: `/nowhere/${c.id}`,
          branch: `codexpi/review-${c.id.slice(0, 6)}`,
          base_branch: base,
          base_commit: "0".repeat(40),
          status: "active",
          created_at: now,
          updated_at: now,
          finished_at: null,
        })
        .execute();
      return sandboxFor(
        await purposeOf(env.db, c.id, project),
        await fullAccessGranted(env.db, c.id, project),
      );
    };
    expect(await modeIn(`${FORK_BRANCH_PREFIX}pr-7`)).toBe("restricted");
    expect(await modeIn(`${FORK_BRANCH_PREFIX}mr-3`)).toBe("restricted");
    expect(await modeIn("main")).toBe("full_access");
    expect(await modeIn(null)).toBe("full_access");
  });

  it("finding 3 with the real Codex: a specialist result in a full-access specialist stays sandboxed; the same turn in a plain full-access conversation is not", async (ctx) => {
    if (!(await jailAvailable())) ctx.skip();
    e = await codexEngine();
    const plain = await e.addProject({ name: "plain", ownerId: "UOWNER", fullAccess: true });
    const specialist = await e.addProject({ name: "specialist", ownerId: "UOWNER", fullAccess: true });
    await e.db
      .updateTable("projects")
      .set({ execution_group: SPECIALIST_GROUP })
      .where("id", "=", specialist.id)
      .execute();
    const outputs: Record<string, string> = {};
    for (const [name, project] of [
      ["plain", plain],
      ["specialist", specialist],
    ] as const) {
      for (const origin of ["decision_answer", "specialist_result"] as const) {
        const before = e.fake.requests.length;
        // Only an unsandboxed command may write /tmp (Codex's workspace-write keeps it read-only).
        e.fake.enqueue(
          { kind: "shell", command: ["sh", "-c", "echo x > /tmp/escalated && echo UNSANDBOXED; true"] },
          { kind: "text", text: "ok" },
        );
        const { item } = await startConversation(e.db, e.clock, project, "go", "UOWNER", { origin });
        await e.engine.dispatch();
        expect(await finished(e.db, item.id)).toMatchObject({ status: "done" });
        outputs[`${name}/${origin}`] = JSON.stringify(functionCallOutputs(e.fake.requests[before + 1] ?? {}));
      }
    }
    expect(outputs["plain/decision_answer"]).toContain("UNSANDBOXED"); // positive control
    expect(outputs["plain/specialist_result"]).toContain("UNSANDBOXED");
    expect(outputs["specialist/decision_answer"]).not.toContain("UNSANDBOXED");
    expect(outputs["specialist/specialist_result"]).not.toContain("UNSANDBOXED");
  });
});
