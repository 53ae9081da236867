import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { tsFilesUnder } from "../support/sourceScan.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";
import { parsePrometheusText } from "../support/promText.js";
import { settled } from "../support/settled.js";

// Issue 21, items 2 and 4 end to end through the real bot (signed HTTP, notifier, ticker), real
// `codexpi worker` processes and the real Codex binary against the fake model: budgets refuse the
// next prompt once reached and tell each admin once; `/codex usage` is the sum of what the turns
// recorded; `/metrics` is strict Prometheus text.

type Bot = Awaited<ReturnType<typeof slackBot>>;
const ADMIN2 = "UADMIN2";

/** The queue's finished items once there are `n` of them. */
const finished = (b: Bot, n: number) =>
  eventually(
    async () => {
      const rows = await b.db
        .selectFrom("prompt_queue")
        .select(["id", "status", "usage"])
        .where("status", "in", ["done", "failed", "cancelled"])
        .execute();
      return rows.length >= n ? rows : null;
    },
    90_000,
    `${n} finished turns`,
  );

/** Tokens the finished turns recorded (each is the only turn of its conversation: its totals are its own). */
const recorded = (rows: Array<{ usage: string | null }>) =>
  rows.reduce(
    (acc, r) => {
      const u = JSON.parse(r.usage ?? "{}") as Record<string, number>;
      return {
        input: acc.input + (u.input_tokens ?? 0),
        cached: acc.cached + (u.cached_input_tokens ?? 0),
        output: acc.output + (u.output_tokens ?? 0),
      };
    },
    { input: 0, cached: 0, output: 0 },
  );

describe("usage, budgets and metrics through the real bot", () => {
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.close();
    bot = undefined;
  });

  const say = async (b: Bot, text: string, user = ADMIN) => {
    const r = await b.command(text, user);
    const response = await b.response(r.responseId, 30_000);
    return [response.text ?? "", JSON.stringify(response.blocks ?? [])].join("\n");
  };
  const dms = (b: Bot, user: string) =>
    b.slack.messages(b.slack.dmChannel(user)).filter((m) => m.text.includes("budget"));

  it("S-USE-01, S-USE-02, S-USE-03: a reached budget refuses the next prompt naming budget, use and reset; each admin gets one DM; /codex usage is the sum of the turns' usage", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en", CODEXPI_ADMINS: `${ADMIN},${ADMIN2}` } });
    const b = bot;
    for (const u of [ADMIN, ADMIN2, OWNER]) b.slack.setUser(u, { locale: "en-US" });

    await b.command("ask demo USE-ONE say hi", OWNER);
    const used1 = recorded(await finished(b, 1));
    expect(used1.input).toBeGreaterThan(0);
    const budget = used1.input + used1.output + 1;
    expect(await say(b, `budget set project demo --daily ${budget}`)).toContain(
      `Budget of project *demo*: ${budget} tokens per day, no limit per month.`,
    );
    expect(await say(b, `budget set project demo --daily ${budget}`, OWNER)).toContain("Admins only");

    // Under the budget the prompt runs (the positive control), and takes the day over it.
    await b.command("ask demo USE-TWO say hi again", OWNER);
    const rows = await finished(b, 2);
    const used = recorded(rows);
    const total = used.input + used.output;
    expect(total).toBeGreaterThanOrEqual(budget);

    const refused = await say(b, "ask demo USE-THREE one more", OWNER);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(refused).toContain(
      `The daily budget of project demo is reached: ${total} tokens used of ${budget}`,
    );
    expect(refused).toContain(`it resets at ${tomorrow} 00:00 UTC`);
    expect(await b.db.selectFrom("prompt_queue").select("id").execute()).toHaveLength(2);

    // Each admin is told once, in a DM.
    for (const admin of [ADMIN, ADMIN2]) {
      const [dm] = await eventually(
        () => (dms(b, admin).length ? dms(b, admin) : null),
        15_000,
        `DM to ${admin}`,
      );
      expect(dm?.text).toContain(
        `The daily budget of project *demo* is reached: ${total} tokens used of ${budget}`,
      );
    }
    // A second refused prompt tells nobody again (the first DM above shows that telling happens).
    expect(await say(b, "ask demo USE-FOUR and again", OWNER)).toContain("is reached");
    await eventually(
      async () =>
        (await b.db.selectFrom("outbox").select("id").where("status", "=", "pending").execute()).length ===
          0 || null,
      15_000,
      "the outbox drained",
    );
    await new Promise((r) => setTimeout(r, 600));
    expect([dms(b, ADMIN).length, dms(b, ADMIN2).length]).toEqual([1, 1]);

    // `/codex usage` is the sum of what the turns recorded.
    const report = await say(b, "usage demo --days 1", OWNER);
    expect(report).toContain(
      `*Total*: ${total} tokens (input ${used.input} of which ${used.cached} cached, output ${used.output})`,
    );
    expect(report).toContain("2 turn(s)");
    expect(await say(b, "budget list")).toContain(`used today ${total}`);
    expect(await say(b, "budget clear project demo")).toContain("removed");
  });

  it("S-MET-01: /metrics passes a strict Prometheus text parser, with HELP and TYPE for each family and counters as counters", async () => {
    bot = await slackBot({ env: { CODEXPI_LOCALE: "en" } });
    const b = bot;
    // One post answered 429: the notifier retries it, the metric counts it.
    b.slack.failNext("chat.postMessage", { status: 429, retryAfter: 1 });
    await b.command("ask demo MET-ONE say hi", OWNER);
    await finished(b, 1);
    await say(b, "budget set user <@UOWNER> --monthly 1000000");
    await say(b, "budget set project demo --monthly 1000000");
    // The turn's posts (the one answered 429 retried a second later) are done before the scrape.
    await settled(b);
    const res = await fetch(`${b.metricsBase}/metrics`);
    expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await res.text();
    const families = parsePrometheusText(text);
    const family = (name: string, type: string) => {
      const f = families.get(name);
      expect(f?.type, name).toBe(type);
      expect(f?.help.length, name).toBeGreaterThan(0);
      return f?.samples ?? [];
    };
    const value = (name: string, type: string, labels: Record<string, string> = {}) =>
      family(name, type).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value("codexpi_up", "gauge")).toBe(1);
    expect(value("codexpi_queue_queued", "gauge")).toBe(0);
    expect(value("codexpi_queue_running", "gauge")).toBe(0);
    expect(value("codexpi_approvals_waiting", "gauge")).toBe(0);
    expect(value("codexpi_turns_total", "counter", { outcome: "done" })).toBe(1);
    expect(value("codexpi_tokens_total", "counter", { project: "demo", kind: "input" })).toBeGreaterThan(0);
    expect(value("codexpi_agent_seconds_total", "counter", { project: "demo" })).toBeGreaterThan(0);
    expect(
      value("codexpi_budget_tokens", "gauge", { scope: "project", subject: "demo", period: "monthly" }),
    ).toBe(1_000_000);
    expect(
      value("codexpi_budget_used_tokens", "gauge", { scope: "project", subject: "demo", period: "monthly" }),
    ).toBe(
      value("codexpi_tokens_total", "counter", { project: "demo", kind: "input" })! +
        value("codexpi_tokens_total", "counter", { project: "demo", kind: "output" })!,
    );
    // A person's budget is counted, never labelled with their Slack id (issue 31, item 5).
    expect(value("codexpi_user_budgets", "gauge", { period: "monthly" })).toBe(1);
    expect(value("codexpi_user_budgets", "gauge", { period: "daily" })).toBe(0);
    expect(value("codexpi_user_budgets_reached", "gauge", { period: "monthly" })).toBe(0);
    expect(text).not.toContain(OWNER);
    expect(value("codexpi_slack_calls_total", "counter", { method: "auth.test" })).toBeGreaterThanOrEqual(1);
    expect(
      value("codexpi_slack_calls_total", "counter", { method: "chat.postMessage" }),
    ).toBeGreaterThanOrEqual(2);
    expect(value("codexpi_slack_rate_limited_total", "counter", { method: "chat.postMessage" })).toBe(1);
    family("codexpi_notifier_failures_total", "counter");
  });

  it("S-MET-02: the parser refuses what breaks the format (its positive control)", () => {
    expect(() => parsePrometheusText("# HELP a_total x\n# TYPE a_total counter\na_total 1\n")).not.toThrow();
    expect(() => parsePrometheusText("a 1\n")).toThrow(/outside its family/);
    expect(() => parsePrometheusText("# TYPE a gauge\na 1\n")).toThrow(/without HELP/);
    expect(() => parsePrometheusText("# HELP a x\n# TYPE a counter\na 1\n")).toThrow(/_total/);
    expect(() => parsePrometheusText('# HELP a x\n# TYPE a gauge\na{b="c} 1\n')).toThrow(/bad labels/);
    expect(() => parsePrometheusText("# HELP a x\n# TYPE a gauge\na one\n")).toThrow(/bad value/);
  });

  it("S-MET-03: no hand-written exposition remains: no file of src writes HELP or TYPE lines (prom-client does)", () => {
    const writers = tsFilesUnder("src").filter((f) => /# (TYPE|HELP) /.test(fs.readFileSync(f, "utf8")));
    expect(writers).toEqual([]);
    // The control: the scan finds such a line where there is one.
    expect(tsFilesUnder("test/support").some((f) => /# (TYPE|HELP) /.test(fs.readFileSync(f, "utf8")))).toBe(
      true,
    );
  });
});
