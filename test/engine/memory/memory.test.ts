import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { fitNotes, memoryBrief } from "../../../src/engine/memory/brief.js";
import { turnMemory } from "../../../src/engine/memory/index.js";
import { setProjectPrompter } from "../../../src/engine/projects/index.js";
import { testEngine } from "../../support/engine.js";

const OWNER = { userId: "UOWNER", isAdmin: false };
const ADMIN = { userId: "UADMIN", isAdmin: true };
const PROMPTER = { userId: "UPROMPT", isAdmin: false };
const STRANGER = { userId: "USTRANGER", isAdmin: false };

// Project memory's engine (issue 34): who keeps notes, what an agent's marker makes, what a turn
// is given within the budget, and the audit trail of every change.
describe("project memory (engine)", () => {
  let env: Awaited<ReturnType<typeof testEngine>>;
  afterEach(async () => env?.close());

  const notesIn = () => env.db.selectFrom("memory_notes").selectAll().orderBy("created_at").execute();

  it("S-MEM-01: the owner and admins keep notes; a prompter only when the project says prompters; a stranger never", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    const api = createEngineApi(env.engine);
    await setProjectPrompter(env.db, env.clock, OWNER, "demo", PROMPTER.userId, true);
    const a = await api.memory.add(OWNER, "demo", "  staging is deployed with `make ship`  ");
    expect(a).toMatchObject({
      text: "staging is deployed with `make ship`",
      status: "kept",
      addedBy: "UOWNER",
    });
    env.clock.advance(1000);
    await api.memory.add(ADMIN, "demo", "never touch the billing migrations");
    env.clock.advance(1000);
    await expect(api.memory.add(PROMPTER, "demo", "prompter note")).rejects.toMatchObject({
      reason: "memory_not_allowed",
    });
    await expect(api.memory.add(STRANGER, "demo", "x")).rejects.toMatchObject({
      reason: "project_not_found",
    });
    await expect(api.memory.add(OWNER, "demo", "  ")).rejects.toMatchObject({
      reason: "memory_text_invalid",
    });
    // The project lets its prompters: the same person may now (positive control of the refusal).
    await api.projects.update(ADMIN, "demo", { memoryWriters: "prompters" });
    await api.memory.add(PROMPTER, "demo", "prompter note");
    const listed = await api.memory.list(PROMPTER, "demo");
    expect(listed.notes.map((n) => n.text)).toEqual([
      "staging is deployed with `make ship`",
      "never touch the billing migrations",
      "prompter note",
    ]);
    expect(listed).toMatchObject({ mayWrite: true, leftOut: [], budget: 4000 });
    // Forget: gone from the list and from every turn; a second forget is told it is forgotten.
    await api.memory.forget(OWNER, a.id);
    await expect(api.memory.forget(OWNER, a.id)).rejects.toMatchObject({ reason: "memory_note_moved" });
    expect((await api.memory.list(OWNER, "demo")).notes).toHaveLength(2);
    const brief = await turnMemory(env.engine, env.project);
    expect(brief).toContain("> [");
    expect(brief).not.toContain("make ship");
    expect(brief).toContain("never touch the billing migrations");
    // Every change is in the audit trail, refusals too.
    const audit = await env.db
      .selectFrom("audit_events")
      .select(["action", "actor", "outcome", "project"])
      .execute();
    expect(
      audit.filter((e) => e.action.startsWith("memory.")).map((e) => `${e.action} ${e.actor} ${e.outcome}`),
    ).toEqual([
      "memory.add UOWNER ok",
      "memory.add UADMIN ok",
      "memory.add UPROMPT refused",
      "memory.add USTRANGER refused",
      "memory.add UOWNER refused",
      "memory.add UPROMPT ok",
      "memory.forget UOWNER ok",
      "memory.forget UOWNER refused",
    ]);
    expect(audit.find((e) => e.action === "memory.forget")?.project).toBe("demo");
  });

  it("S-MEM-02: an agent's CODEXPI_REMEMBER is a proposal (once per turn, never in a turn); Keep keeps it, Discard keeps nothing, a stranger's click is refused", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    const api = createEngineApi(env.engine);
    const propose = async (text: string) => {
      const { conversation, item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
      const answer = `Done.\nCODEXPI_REMEMBER {"text": ${JSON.stringify(text)}}`;
      for (let i = 0; i < 2; i++)
        await writeTransaction(env.db, (trx) =>
          env.engine.hook(trx, conversation.id, item.id, "done", answer, null),
        );
      return (await notesIn()).find((n) => n.text === text)!;
    };
    const first = await propose("Alice owns the API");
    expect((await notesIn()).filter((n) => n.text === "Alice owns the API")).toHaveLength(1);
    expect(first).toMatchObject({ status: "proposed", source: "agent" });
    // A quoted marker is text, not a proposal.
    const { conversation, item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER");
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, item.id, "done", '> CODEXPI_REMEMBER {"text": "quoted"}', null),
    );
    expect((await notesIn()).some((n) => n.text === "quoted")).toBe(false);
    // A proposal is given to no turn.
    expect(await turnMemory(env.engine, env.project)).toBeNull();
    await expect(api.memory.keep(STRANGER, first.id)).rejects.toMatchObject({
      reason: "memory_note_not_found",
    });
    await setProjectPrompter(env.db, env.clock, OWNER, "demo", PROMPTER.userId, true);
    await expect(api.memory.keep(PROMPTER, first.id)).rejects.toMatchObject({ reason: "memory_not_allowed" });
    expect((await notesIn()).find((n) => n.id === first.id)?.status).toBe("proposed");
    await api.memory.keep(OWNER, first.id);
    await expect(api.memory.discard(OWNER, first.id)).rejects.toMatchObject({ reason: "memory_note_moved" });
    expect(await turnMemory(env.engine, env.project)).toContain("Alice owns the API");
    const second = await propose("deploy on Fridays");
    await api.memory.discard(ADMIN, second.id);
    expect(await turnMemory(env.engine, env.project)).not.toContain("Fridays");
    // Edit keeps a proposal with the person's words.
    const third = await propose("the CI is slow");
    await api.memory.edit(OWNER, third.id, "the CI takes 20 minutes");
    const brief = await turnMemory(env.engine, env.project);
    expect(brief).toContain("the CI takes 20 minutes");
    const events = await env.db
      .selectFrom("outbox")
      .select("kind")
      .where("kind", "like", "memory.%")
      .execute();
    expect(events.map((e) => e.kind)).toEqual([
      "memory.proposed",
      "memory.updated",
      "memory.proposed",
      "memory.updated",
      "memory.proposed",
      "memory.updated",
    ]);
    const audit = await env.db.selectFrom("audit_events").select(["action", "actor"]).execute();
    expect(
      audit.filter((e) => e.action === "memory.propose").every((e) => e.actor.startsWith("agent:")),
    ).toBe(true);
  });

  it("S-MEM-03: the budget gives the notes that fit, oldest first, and names those it leaves out", () => {
    const notes = [
      { id: "n1", text: "a".repeat(40) },
      { id: "n2", text: "b".repeat(100) },
      { id: "n3", text: "c".repeat(10) },
    ];
    // "> [n1] " is 7 characters: n1 takes 47, n3 18 (+1 newline), n2 (107) does not fit in 70.
    expect(fitNotes(notes, 70)).toEqual({ given: ["n1", "n3"], leftOut: ["n2"] });
    const brief = memoryBrief("demo", notes, 70, "en") ?? "";
    expect(brief).toContain("> [n1] aaaa");
    expect(brief).not.toContain("bbbb");
    expect(brief).toContain(
      "1 note left out: over the budget of 70 characters of notes (CODEXPI_MEMORY_CHARS): n2",
    );
    // Positive control: with room for all, none is left out.
    expect(memoryBrief("demo", notes, 4000, "en")).not.toContain("left out");
  });
});
