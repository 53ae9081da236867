import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../../src/engine/api/index.js";
import { writeTransaction } from "../../../src/engine/database.js";
import { finishItem } from "../../../src/engine/conversations/outcome.js";
import { isOverBudget } from "../../../src/engine/usage/index.js";
import { turnShare } from "../../../src/engine/usage/record.js";
import { testEngine } from "../../support/engine.js";

// Issue 21, item 2 in the engine: what a finished turn used is recorded once, as this turn's share
// of the thread's running totals; the report sums it; a budget refuses the next prompt before it
// is queued and tells each admin once per period.

const ADMIN = { userId: "UADMIN", isAdmin: true };
const OWNER = { userId: "UOWNER", isAdmin: false };
type Env = Awaited<ReturnType<typeof testEngine>>;

/** Finishes the conversation's running turn with Codex's running totals for the thread. */
async function finishRunning(env: Env, usage: Record<string, number>): Promise<void> {
  const running = await env.db
    .selectFrom("prompt_queue")
    .select(["id", "attempt"])
    .where("status", "=", "running")
    .executeTakeFirstOrThrow();
  const done = await writeTransaction(env.db, (trx) =>
    finishItem(trx, env.clock, env.engine.hook, running, {
      status: "done",
      content: "ok",
      error: null,
      errorCode: null,
      usage,
    }),
  );
  expect(done).toBe(true);
}

describe("usage and budgets (engine)", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-USE-04: a follow-up's usage is its share of the thread's running totals; the report sums turns, agent minutes and the priced cost", async () => {
    env = await testEngine({
      env: {
        CODEXPI_ADMINS: "UADMIN",
        CODEXPI_PRICES: JSON.stringify({
          currency: "EUR",
          models: { default: { input: 2, cached: 1, output: 10 } },
        }),
      },
    });
    const api = createEngineApi(env.engine);
    const { conversation } = await api.conversations.ask(OWNER, "demo", "first");
    env.clock.advance(60_000);
    await finishRunning(env, { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10 });
    const c = await api.conversations.load(conversation.id);
    await api.conversations.followUp(OWNER, c, "second");
    env.clock.advance(30_000);
    await finishRunning(env, { input_tokens: 250, cached_input_tokens: 90, output_tokens: 30 });

    const rows = await env.db
      .selectFrom("turn_usage")
      .select(["input_tokens", "cached_input_tokens", "output_tokens", "agent_ms", "person"])
      .orderBy("finished_at")
      .execute();
    expect(rows).toEqual([
      { input_tokens: 100, cached_input_tokens: 40, output_tokens: 10, agent_ms: 60_000, person: "UOWNER" },
      { input_tokens: 150, cached_input_tokens: 50, output_tokens: 20, agent_ms: 30_000, person: "UOWNER" },
    ]);
    const report = await api.usage.report(OWNER, { days: 1 });
    expect(report.total).toMatchObject({ turns: 2, input: 250, cached: 90, output: 30, agentMs: 90_000 });
    // (250 − 90) × 2 + 90 × 1 + 30 × 10 per million tokens.
    expect(report.total.cost).toBeCloseTo((160 * 2 + 90 + 300) / 1_000_000, 12);
    expect(report.currency).toBe("EUR");
    expect(report.byProject.map((r) => r.key)).toEqual(["demo"]);
    expect(report.byPerson.map((r) => r.key)).toEqual(["UOWNER"]);
    // Someone who cannot read the project sees none of it.
    const stranger = await api.usage.report({ userId: "USTRANGER", isAdmin: false }, { days: 1 });
    expect(stranger.total.turns).toBe(0);
  });

  it("S-USE-04: totals that do not grow (a new thread, a runner reporting per turn) are the turn's own", () => {
    const prev = { input: 100, cached: 0, output: 10 };
    expect(turnShare({ input: 250, cached: 0, output: 30 }, prev)).toEqual({
      input: 150,
      cached: 0,
      output: 20,
    });
    expect(turnShare({ input: 100, cached: 0, output: 10 }, prev)).toEqual(prev);
    expect(turnShare({ input: 40, cached: 0, output: 5 }, prev)).toEqual({ input: 40, cached: 0, output: 5 });
  });

  it("S-USE-05: a project budget refuses the next prompt once reached (before anything is queued; a replayed request is answered as before), tells each admin once per period, and resets with the day", async () => {
    env = await testEngine({ env: { CODEXPI_ADMINS: "UADMIN,UADMIN2" } });
    const api = createEngineApi(env.engine);
    await expect(
      api.usage.setBudget(OWNER, { scope: "project", name: "demo" }, { daily: 100 }),
    ).rejects.toMatchObject({
      reason: "admins_only",
    });
    const change = await api.usage.setBudget(ADMIN, { scope: "project", name: "demo" }, { daily: 100 });
    expect(change).toMatchObject({
      action: "budget.set",
      actor: "UADMIN",
      name: "demo",
      before: null,
      after: { daily: 100, monthly: null },
    });
    // Under the budget, prompts run (the positive control).
    const first = await api.conversations.ask(OWNER, "demo", "one", { requestKey: "req-one" });
    await finishRunning(env, { input_tokens: 90, output_tokens: 20 });
    const queued = async () => (await env!.db.selectFrom("prompt_queue").select("id").execute()).length;
    expect(await queued()).toBe(1);
    const refusal = await api.conversations.ask(OWNER, "demo", "two").catch((e: unknown) => e);
    expect(isOverBudget(refusal)).toBe(true);
    expect(isOverBudget(refusal) && refusal.refusal).toMatchObject({
      kind: "over-budget",
      scope: "project",
      name: "demo",
      period: "daily",
      budget: 100,
      used: 110,
      resetsAt: Date.UTC(2026, 0, 2),
    });
    expect(await queued()).toBe(1);
    // A replayed request (Slack's retry of the first) answers as the first delivery did.
    const replay = await api.conversations.ask(OWNER, "demo", "one", { requestKey: "req-one" });
    expect(replay.item.id).toBe(first.item.id);
    // A second refusal (a follow-up this time) tells nobody again.
    const c = await api.conversations.load(
      (await env.db.selectFrom("conversations").select("id").executeTakeFirstOrThrow()).id,
    );
    await expect(api.conversations.followUp(OWNER, c, "three")).rejects.toMatchObject({
      reason: "over_budget",
    });
    const notices = await env.db
      .selectFrom("outbox")
      .select("payload")
      .where("kind", "=", "budget.reached")
      .execute();
    expect(notices.map((n) => JSON.parse(n.payload).admin).sort()).toEqual(["UADMIN", "UADMIN2"]);
    expect((await api.usage.budgets(ADMIN))[0]).toMatchObject({
      name: "demo",
      used: { daily: 110, monthly: 110 },
    });

    // The next UTC day the budget is fresh again.
    env.clock.set(Date.UTC(2026, 0, 2, 0, 0, 1));
    await api.conversations.ask(OWNER, "demo", "four");
    expect(await queued()).toBe(2);
    const cleared = await api.usage.clearBudget(ADMIN, { scope: "project", name: "demo" });
    expect(cleared).toMatchObject({ action: "budget.clear", before: { daily: 100 }, after: null });
    expect(await api.usage.budgets(ADMIN)).toEqual([]);
  });

  it("S-USE-06: a person's monthly budget refuses that person only", async () => {
    env = await testEngine({ env: { CODEXPI_ADMINS: "UADMIN" } });
    const api = createEngineApi(env.engine);
    await env.addProject({ name: "open", ownerId: null });
    await api.usage.setBudget(ADMIN, { scope: "user", name: "UOWNER" }, { monthly: 50 });
    await api.conversations.ask(OWNER, "open", "one");
    await finishRunning(env, { input_tokens: 40, output_tokens: 20 });
    await expect(api.conversations.ask(OWNER, "open", "two")).rejects.toMatchObject({
      reason: "over_budget",
      params: {
        scope: "user",
        name: "UOWNER",
        period: "monthly",
        budget: 50,
        used: 60,
        resets: "2026-02-01 00:00 UTC",
      },
    });
    await api.conversations.ask({ userId: "UELSE", isAdmin: false }, "open", "someone else");
  });
});
