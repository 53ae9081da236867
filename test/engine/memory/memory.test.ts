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

  it("S-MEM-11: a note kept for a place reaches the conversations started there only, labelled and first within the budget; the project's reach every place", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en" } });
    const api = createEngineApi(env.engine);
    const project = await api.memory.add(OWNER, "demo", "staging is deployed with make ship");
    env.clock.advance(1000);
    const here = await api.memory.add(OWNER, "demo", "this channel is for the mobile app", "CHERE");
    expect(here).toMatchObject({ place: "CHERE", status: "kept" });
    expect((await notesIn()).find((n) => n.id === here.id)?.channel_id).toBe("CHERE");
    // A conversation started through `ask` keeps the opaque place it was written in.
    const asked = await api.conversations.ask(OWNER, "demo", "hello", { placeId: "CHERE" });
    const row = await env.db
      .selectFrom("conversations")
      .select("place")
      .where("id", "=", asked.conversation.id)
      .executeTakeFirstOrThrow();
    expect(row.place).toBe("CHERE");
    // A turn there: its place's notes, labelled, then the project's, labelled.
    const there = (await turnMemory(env.engine, env.project, "CHERE")) ?? "";
    expect(there).toContain("[Team notes of project demo: 2 notes");
    expect(there).toContain(
      `[1 note kept for the channel this conversation was started in, and only for it:]\n> [${here.id}] this channel is for the mobile app`,
    );
    expect(there).toContain(`[1 note of the whole project:]\n> [${project.id}] staging is deployed`);
    expect(there.indexOf("mobile app")).toBeLessThan(there.indexOf("make ship"));
    // Another place and no place: the project's note (the positive control), never this place's.
    for (const elsewhere of [
      await turnMemory(env.engine, env.project, "COTHER"),
      await turnMemory(env.engine, env.project),
    ]) {
      expect(elsewhere).toContain("staging is deployed with make ship");
      expect(elsewhere).not.toContain("mobile app");
      expect(elsewhere).not.toContain("kept for the channel");
    }
    // The list in that place shows both, the place's first; elsewhere the project's only.
    const listed = await api.memory.list(OWNER, "demo", "CHERE");
    expect(listed.notes.map((n) => [n.id, n.place])).toEqual([
      [here.id, "CHERE"],
      [project.id, null],
    ]);
    expect((await api.memory.list(OWNER, "demo", "COTHER")).notes.map((n) => n.id)).toEqual([project.id]);
    expect((await api.memory.overview(OWNER))[0]?.notes.map((n) => n.id)).toEqual([here.id, project.id]);
  });

  it("S-MEM-12: over the budget, a place's notes are given before the project's; an agent's proposal is kept for its conversation's place when asked, refused when it has none", async () => {
    env = await testEngine({ env: { CODEXPI_LOCALE: "en", CODEXPI_MEMORY_CHARS: "60" } });
    const api = createEngineApi(env.engine);
    const older = await api.memory.add(OWNER, "demo", "p".repeat(40));
    env.clock.advance(1000);
    const place = await api.memory.add(OWNER, "demo", "h".repeat(40), "CHERE");
    // In the place, its note fits first and the older project note is left out (and named).
    const there = (await turnMemory(env.engine, env.project, "CHERE")) ?? "";
    expect(there).toContain("h".repeat(40));
    expect(there).not.toContain("p".repeat(40));
    expect(there).toContain(`(CODEXPI_MEMORY_CHARS): ${older.id}]`);
    expect((await api.memory.list(OWNER, "demo", "CHERE")).leftOut).toEqual([older.id]);
    // Elsewhere the project note fits (the control).
    expect(await turnMemory(env.engine, env.project, "COTHER")).toContain("p".repeat(40));
    await api.memory.forget(OWNER, place.id);
    await api.memory.forget(OWNER, older.id);

    const propose = async (placeId: string | null, text: string) => {
      const { conversation, item } = await startConversation(env.db, env.clock, env.project, "go", "UOWNER", {
        options: { place: placeId },
      });
      const answer = `Done.\nCODEXPI_REMEMBER {"text": ${JSON.stringify(text)}}`;
      await writeTransaction(env.db, (trx) =>
        env.engine.hook(trx, conversation.id, item.id, "done", answer, null),
      );
      return (await notesIn()).find((n) => n.text === text)!;
    };
    const inChannel = await propose("CHERE", "the mobile app ships weekly");
    expect((await api.memory.card(inChannel.id))?.proposedIn).toBe("CHERE");
    const kept = await api.memory.keep(OWNER, inChannel.id, true);
    expect(kept).toMatchObject({ status: "kept", place: "CHERE" });
    expect(await turnMemory(env.engine, env.project, "CHERE")).toContain("the mobile app ships weekly");
    expect(await turnMemory(env.engine, env.project, "COTHER")).toBeNull();
    // Started nowhere: "for this place" is refused and nothing moves; Keep (for the project) keeps it.
    const nowhere = await propose(null, "the CI takes 20 minutes");
    expect((await api.memory.card(nowhere.id))?.proposedIn).toBeNull();
    await expect(api.memory.keep(OWNER, nowhere.id, true)).rejects.toMatchObject({
      reason: "memory_no_place",
    });
    expect((await notesIn()).find((n) => n.id === nowhere.id)?.status).toBe("proposed");
    await api.memory.keep(OWNER, nowhere.id);
    expect(await turnMemory(env.engine, env.project, "COTHER")).toContain("the CI takes 20 minutes");
  });
});
