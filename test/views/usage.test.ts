import { describe, expect, it } from "vitest";
import type { UsageReport } from "../../src/engine/api/model.js";
import { homeView } from "../../src/views/home.js";
import { usageView } from "../../src/views/usage.js";
import { expectWithinBlockKit } from "./blockKit.js";

const sums = {
  turns: 2,
  input: 1000,
  cached: 400,
  output: 100,
  agentMs: 90_000,
  cost: null as number | null,
};
const report = (over: Partial<UsageReport> = {}): UsageReport => ({
  days: 7,
  since: 0,
  project: null,
  currency: null,
  total: sums,
  byProject: Array.from({ length: 60 }, (_, i) => ({ key: `p${i}`, ...sums })),
  byPerson: [{ key: "U123", ...sums }],
  byDay: [{ key: "2026-12-02", ...sums }],
  ...over,
});

describe("usage views", () => {
  it("S-USE-04: the report shows the cost only with a price table, and stays within Block Kit's limits", () => {
    const plain = JSON.stringify(usageView("en", report()).blocks);
    expect(plain).toContain(
      "*Total*: 1100 tokens (input 1000 of which 400 cached, output 100) · 1.5 agent min · 2 turn(s)",
    );
    expect(plain).toContain("<@U123>");
    expect(plain).not.toContain("~");
    const priced = report({ currency: "EUR", total: { ...sums, cost: 0.0123 } });
    expect(JSON.stringify(usageView("en", priced).blocks)).toContain("· ~0.0123 EUR");
    expectWithinBlockKit(usageView("en", report()).blocks);
    expect(JSON.stringify(usageView("fr", report()).blocks)).toContain("jetons");
  });

  it("S-USE-03: the App Home shows the last 7 days' usage, or says there was none", () => {
    const base = {
      decisions: [],
      incidents: [],
      specialists: [],
      runtime_policies: { global: {} as never, projects: [] },
    };
    const home = JSON.stringify(homeView("en", { ...base, usage: report() }).blocks);
    expect(home).toContain("Usage over the last 7 days");
    expect(home).toContain("*p0*: 1100 tokens");
    const none = report({ total: { ...sums, turns: 0 }, byProject: [] });
    expect(JSON.stringify(homeView("en", { ...base, usage: none }).blocks)).toContain("No finished turn");
  });
});
