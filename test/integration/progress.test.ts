import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import { parseProgress } from "../../src/engine/conversations/progress.js";
import { conversationView } from "../../src/engine/read/conversations.js";
import { conversationRoot } from "../../src/views/conversation.js";
import { codexEngine, finished, until } from "../support/codexEngine.js";

const STEPS = 5;

// Real `codexpi worker` processes running the real Codex binary against a fake model.
describe("live progress (real binary, fake model)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>>;
  afterEach(async () => env?.close());

  it("the status shows each of five successive commands while it runs, then the duration and tokens", async () => {
    env = await codexEngine();
    for (let i = 1; i <= STEPS; i++)
      env.fake.enqueue({ kind: "shell", command: ["sh", "-c", `sleep 2; echo step-${i}`] });
    env.fake.enqueue({ kind: "text", text: "fini", usage: { input_tokens: 1200, output_tokens: 34 } });
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.project,
      "cinq étapes",
      "UOWNER",
    );
    await env.engine.dispatch();

    // What the status would show, sampled with how many model requests had arrived then: command
    // N runs between request N (which asked for it) and request N+1 (which carries its output).
    const seen: Array<{ detail: string | null; requests: number }> = [];
    let status = "";
    const sample = async () => {
      const requests = env.fake.requests.length;
      const view = await conversationView(env.db, conversation.id);
      if (view?.status !== "running") return;
      seen.push({ detail: view.progress?.detail ?? null, requests });
      status = conversationRoot("en", { ...view, now: Date.now() }).text;
    };
    const done = finished(env.db, item.id);
    let over = false;
    void done.finally(() => {
      over = true;
    });
    while (!over) {
      await sample();
      await new Promise((r) => setTimeout(r, 150));
    }
    const row = await done;
    expect(row.status).toBe("done");
    expect(status).toBeTruthy();
    for (let i = 1; i <= STEPS; i++) {
      // Seen while it ran: before the request carrying its output had arrived.
      const during = seen.filter((s) => s.detail?.includes(`step-${i}`) && s.requests === i);
      expect(during.length, `step-${i} shown while it ran (${JSON.stringify(seen)})`).toBeGreaterThan(0);
    }
    // Positive control: the previous command is never shown once the next one has started.
    for (let i = 2; i <= STEPS; i++)
      expect(seen.some((s) => s.detail?.includes(`step-${i - 1}`) && s.requests > i)).toBe(false);

    // Each stored activity went through the outbox as a progress event, as structured progress.
    const events = await env.db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", "conversation.progress")
      .execute();
    const details = events.map((e) => parseProgress(JSON.parse(e.payload).activity)?.detail ?? "");
    for (let i = 1; i <= STEPS; i++) expect(details.some((d) => d.includes(`step-${i}`))).toBe(true);

    // The final state: the duration and the tokens used, in the person's language.
    const view = await conversationView(env.db, conversation.id);
    expect(view?.tokens).toBeGreaterThanOrEqual(1234);
    const en = conversationRoot("en", { ...view!, now: Date.now() });
    expect(JSON.stringify(en.blocks)).toMatch(/Done in \d+ s · [\d,]+ tokens/);
    const fr = conversationRoot("fr", { ...view!, now: Date.now() });
    expect(JSON.stringify(fr.blocks)).toMatch(/Terminé en \d+ s · [\d\s\u202f]+ jetons/u);
  }, 120_000);

  it("the agent's plan shows as a checklist while it works (Codex's update_plan, enabled by codexpi)", async () => {
    env = await codexEngine();
    env.fake.enqueue(
      {
        kind: "call",
        name: "update_plan",
        arguments: {
          plan: [
            { step: "Lire le code", status: "completed" },
            { step: "Corriger le test", status: "in_progress" },
          ],
        },
      },
      { kind: "shell", command: ["sh", "-c", "sleep 3; echo plan-step"] },
      { kind: "text", text: "fini" },
    );
    const { conversation, item } = await startConversation(
      env.db,
      env.clock,
      env.project,
      "avec un plan",
      "UOWNER",
    );
    await env.engine.dispatch();
    // The plan was offered to the model (positive control: it is off by default in the pinned binary).
    const shown = await until(
      async () => {
        const view = await conversationView(env.db, conversation.id);
        if (view?.status !== "running" || !view.progress?.detail?.includes("plan-step")) return undefined;
        return conversationRoot("fr", { ...view, now: Date.now() });
      },
      60_000,
      "the command with its plan",
    );
    const text = JSON.stringify(shown.blocks);
    expect(text).toContain("*Plan :*");
    expect(text).toContain("☑ Lire le code");
    expect(text).toContain("☐ Corriger le test");
    expect(text).toContain("exécute une commande");
    expect((env.fake.requests[0]?.tools ?? []).some((t) => t.name === "update_plan")).toBe(true);
    expect((await finished(env.db, item.id)).status).toBe("done");
  }, 120_000);
});
