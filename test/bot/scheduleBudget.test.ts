import { afterEach, describe, expect, it } from "vitest";
import { t } from "../../src/i18n/index.js";
import { movableClock } from "../support/movableClock.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";

// Issue 21: schedules and budgets, built apart, proven together through the real bot (signed HTTP,
// notifier, ticker), real workers and the real Codex binary against the fake model. A schedule of
// a project over its budget skips its firing and says so in its channel; the budget's changes and
// the refused prompts are in the audit trail. The clock is real time plus an offset the test moves
// (as in schedules.test.ts): a schedule's next minute comes at once.

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Bot = Awaited<ReturnType<typeof slackBot>>;

describe("a schedule over budget through the real bot", () => {
  let s: Bot | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  const env = { CODEXPI_LOCALE: "en", CODEXPI_LEASE_SECONDS: "3600", CODEXPI_ADMINS: ADMIN };
  const ask = async (text: string, user = OWNER) => {
    const r = await s!.command(text, user);
    return (await s!.response(r.responseId, 30_000)).text ?? "";
  };
  const scheduleRow = async (id: string) =>
    s!.db.selectFrom("schedules").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const queued = async () => (await s!.db.selectFrom("prompt_queue").select("id").execute()).length;
  const roots = () => s!.slack.messages("C1").filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  const budgetDms = () =>
    s!.slack.messages(s!.slack.dmChannel(ADMIN)).filter((m) => m.text.includes("budget"));
  const finished = (n: number) =>
    eventually(
      async () => {
        const rows = await s!.db
          .selectFrom("prompt_queue")
          .select("usage")
          .where("status", "in", ["done", "failed", "cancelled"])
          .execute();
        return rows.length >= n ? rows : null;
      },
      90_000,
      `${n} finished turns`,
    );
  const outboxDrained = () =>
    eventually(
      async () =>
        (await s!.db.selectFrom("outbox").select("id").where("status", "=", "pending").execute()).length ===
          0 || null,
      15_000,
      "the outbox drained",
    );

  it("S-SCHED-08 S-AUDIT-06 S-AUDIT-07: a firing over budget is skipped and said in its channel (budget, use, reset), nothing queued, the schedule stays active and fires once the budget is cleared; the audit lists budget.set/clear by the admin and the refused prompt", async () => {
    const clock = movableClock();
    s = await slackBot({ clock, env });
    // A schedule posts only where its creator is a member (S-BUDGET-08).
    s.slack.setChannel("C1", { members: [OWNER, ADMIN] });
    for (const u of [ADMIN, OWNER]) s.slack.setUser(u, { locale: "en-US" });

    // One turn uses tokens; then a budget of one token per day is reached.
    await ask("ask demo BUDGET-ONE say hi");
    const [row] = await finished(1);
    const usage = JSON.parse(row?.usage ?? "{}") as Record<string, number>;
    const used = (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0);
    expect(used).toBeGreaterThan(0);
    expect(await ask("budget set project demo --daily 1", ADMIN)).toContain("Budget of project *demo*");
    const id = /`([0-9a-f]{8})`/.exec(
      await ask('schedule add demo "* * * * *" --tz UTC --channel <#C1|general> summarise last night'),
    )?.[1] as string;
    expect(id).toBeTruthy();
    const before = await scheduleRow(id);

    // The firing: refused by the budget, said in the schedule's channel; nothing queued.
    clock.reach(Number(before.next_fire_at));
    const skipped = await eventually(
      () => s!.slack.messages("C1").find((m) => m.text.includes(id) && m.text.includes("skipped")),
      30_000,
      "the skipped firing's notice in C1",
    );
    const resets = `${new Date(clock.now() + 86_400_000).toISOString().slice(0, 10)} 00:00 UTC`;
    expect(skipped.text).toContain(`the daily budget of project demo is reached (${used} tokens used of 1)`);
    expect(skipped.text).toContain(`it resets at ${resets}`);
    expect(skipped.text).toContain("stays active");
    const after = await scheduleRow(id);
    expect(after).toMatchObject({ status: "active", fired_count: expect.anything() });
    expect(Number(after.fired_count)).toBe(0);
    expect(Number(after.next_fire_at)).toBeGreaterThan(Number(before.next_fire_at));
    expect(await queued()).toBe(1);

    // The admins are told once, as for a person's prompt: the schedule's refusal is the first.
    const [dm] = await eventually(() => (budgetDms().length ? budgetDms() : null), 15_000, "the admin's DM");
    expect(dm?.text).toContain(`The daily budget of project *demo* is reached: ${used} tokens used of 1`);

    // A person's prompt over the same budget is refused (and audited so); nobody is told again.
    expect(await ask("ask demo BUDGET-TWO again")).toContain("is reached");
    await outboxDrained();
    await pause(600);
    expect(budgetDms()).toHaveLength(1);
    expect(await queued()).toBe(1);

    // The positive control: with the budget cleared, the next firing runs.
    expect(await ask("budget clear project demo", ADMIN)).toContain("removed");
    clock.reach(Number(after.next_fire_at));
    await eventually(async () => Number((await scheduleRow(id)).fired_count) === 1, 30_000, "the firing");
    await eventually(() => roots().length === 3, 30_000, "the firing's root in C1"); // prompt, notice, firing
    expect(await queued()).toBe(2);

    // The audit: every step in order with its actor and outcome.
    const audit = await ask("audit demo", ADMIN);
    const lines = audit.split("\n").filter((l) => l.includes(" → "));
    const summary = lines.map((l) => [
      /(<@\w+>|`schedule:\w+`)/.exec(l)?.[1],
      /\*([\w.]+)\*/.exec(l)?.[1],
      / → (\w+)/.exec(l)?.[1],
    ]);
    const schedule = `\`schedule:${id}\``;
    expect(summary).toEqual([
      [`<@${OWNER}>`, "conversation.ask", "ok"],
      [`<@${ADMIN}>`, "budget.set", "ok"],
      [`<@${OWNER}>`, "schedule.add", "ok"],
      [schedule, "schedule.fire", "refused"],
      [`<@${OWNER}>`, "conversation.ask", "refused"],
      [`<@${ADMIN}>`, "budget.clear", "ok"],
      [schedule, "schedule.fire", "ok"],
    ]);
    // The refusals' reasons name the budget, the use and the reset.
    for (const i of [3, 4])
      expect(lines[i]).toContain(
        `over_budget: the daily budget of project demo is reached, ${used} tokens used of 1`,
      );
    expect(lines[1]).toContain('{"daily":1}');
  });

  it("S-SCHED-08: the skipped firing's notice over budget reads the same in French (budget, use, reset, still active)", () => {
    const params = { id: "abcd1234", project: "demo", cron: "0 9 * * 1-5", scope: "project", name: "demo" };
    const at = { period: "monthly", used: 1200, budget: 1000, resets: "2027-01-01 00:00 UTC" };
    expect(t("fr", "schedule.skipped_over_budget", { ...params, ...at })).toBe(
      "⏭ La planification `abcd1234` (demo, `0 9 * * 1-5`) saute ce déclenchement : le budget mensuel du projet demo est atteint (1200 jetons utilisés sur 1000) ; il repart à zéro le 2027-01-01 00:00 UTC. La planification reste active : elle se déclenchera de nouveau à son heure dès que le budget le permettra (après la remise à zéro, ou quand un admin le relèvera).",
    );
    expect(
      t("en", "schedule.skipped_over_budget", { ...params, ...at, scope: "user", name: "<@U1>" }),
    ).toContain(
      "the monthly budget of user <@U1> is reached (1200 tokens used of 1000); it resets at 2027-01-01 00:00 UTC. The schedule stays active",
    );
  });
});
