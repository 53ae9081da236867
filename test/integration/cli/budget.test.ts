import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/engine/database.js";
import { cliHarness } from "./harness.js";

describe("codexpi usage and budget (real binary, fake model)", () => {
  const t = cliHarness();

  it("S-USE-07: the CLI sets, lists and clears budgets (printing the change), reports usage as JSON, and a reached budget refuses `ask`", async () => {
    await t.setup();
    t.env.CODEXPI_LOCALE = "en";
    expect((await t.cli("project", "add", "demo", path.join(t.dir, "demo"))).exitCode).toBe(0);
    await t.relaxPolicy();
    expect((await t.cli("ask", "demo", "hello", "--wait")).exitCode).toBe(0);

    const db = openDatabase(path.join(t.dir, "data", "codexpi.db"));
    const row = await db.selectFrom("prompt_queue").select("usage").executeTakeFirstOrThrow();
    await db.destroy();
    const recorded = JSON.parse(row.usage ?? "{}") as { input_tokens: number; output_tokens: number };
    const tokens = recorded.input_tokens + recorded.output_tokens;
    expect(tokens).toBeGreaterThan(0);
    const usage = await t.cli("usage", "demo", "--days", "1", "--json");
    expect(usage.exitCode).toBe(0);
    const report = JSON.parse(usage.stdout) as { total: { input: number; output: number; turns: number } };
    expect(report.total).toMatchObject({
      input: recorded.input_tokens,
      output: recorded.output_tokens,
      turns: 1,
    });

    const set = await t.cli("budget", "set", "project", "demo", "--daily", String(tokens));
    expect(set.exitCode).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      action: "budget.set",
      actor: "cli",
      name: "demo",
      before: null,
      after: { daily: tokens, monthly: null },
    });
    const list = await t.cli("budget", "list");
    expect(list.stdout).toContain(
      `project demo: ${tokens} tokens per day, no limit per month (${tokens} / ${tokens})`,
    );

    const refused = await t.cli("ask", "demo", "again", "--wait");
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(
      `The daily budget of project demo is reached: ${tokens} tokens used of ${tokens}`,
    );

    const cleared = await t.cli("budget", "clear", "project", "demo");
    expect(JSON.parse(cleared.stdout)).toMatchObject({ action: "budget.clear", after: null });
    expect((await t.cli("budget", "list")).stdout).toContain("no budget");
    expect((await t.cli("budget", "set", "project", "demo", "--daily", "lots")).stderr).toContain(
      "positive whole numbers",
    );
  });
});
