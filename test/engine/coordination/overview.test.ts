import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../../src/engine/conversations/conversations.js";
import { overview } from "../../../src/engine/coordination/overview.js";
import { getPreferences, setPreferences } from "../../../src/engine/coordination/preferences.js";
import { createSpecialist } from "../../../src/engine/coordination/specialists.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { coordinationEnv, OWNER, OWNER_ACTOR } from "../../support/coordination.js";

describe("notification preferences and overview", () => {
  let env: Awaited<ReturnType<typeof coordinationEnv>>;
  afterEach(async () => env?.close());

  it("S-CO-08: preferences are stored per user and read back exactly", async () => {
    env = await coordinationEnv();
    expect(await getPreferences(env.db, OWNER)).toEqual({
      task_completion: true,
      decisions: true,
      incidents: true,
    });
    const saved = await setPreferences(env.db, env.clock, OWNER, {
      task_completion: false,
      decisions: true,
      incidents: true,
    });
    expect(saved).toEqual({ task_completion: false, decisions: true, incidents: true });
    expect(await getPreferences(env.db, OWNER)).toEqual(saved);
    expect(await getPreferences(env.db, "UOTHER")).toEqual({
      task_completion: true,
      decisions: true,
      incidents: true,
    });
    await expect(
      setPreferences(env.db, env.clock, OWNER, { task_completion: "no", decisions: true, incidents: true }),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(setPreferences(env.db, env.clock, OWNER, { task_completion: false })).rejects.toMatchObject({
      code: "invalid",
    });
  });

  it("S-CO-10: the overview has exactly four parts, scoped to the actor", async () => {
    env = await coordinationEnv();
    const { conversation, item } = await startConversation(env.db, env.clock, env.source, "x", OWNER);
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(
        trx,
        conversation.id,
        item.id,
        "done",
        'CODEXPI_DECISION {"question":"Oui ?","options":[{"id":"o","label":"Oui"}]}',
        null,
      ),
    );
    await writeTransaction(env.db, (trx) =>
      env.engine.hook(trx, conversation.id, "other-item", "failed", null, "boom"),
    );
    await createSpecialist(env.engine, OWNER_ACTOR, {
      name: "Studio Interface",
      description: "Conçoit des interfaces PWA accessibles et responsive pour les projets.",
      capabilities: ["design.interface"],
    });
    const mine = await overview(env.db, OWNER_ACTOR);
    expect(Object.keys(mine).sort()).toEqual(["decisions", "incidents", "runtime_policies", "specialists"]);
    expect([mine.decisions.length, mine.incidents.length, mine.specialists.length]).toEqual([1, 1, 1]);
    expect(mine.runtime_policies.projects.map((p) => p.name)).toContain("Projet source");
    const stranger = await overview(env.db, { userId: "USTRANGER", isAdmin: false });
    expect([stranger.decisions.length, stranger.incidents.length, stranger.specialists.length]).toEqual([
      0, 0, 0,
    ]);
    expect(stranger.runtime_policies.projects.map((p) => p.name)).not.toContain("Projet source");
  });
});
