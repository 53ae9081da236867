import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  rateClassOf,
  SlackBudget,
  TIER_PER_MINUTE,
  type BudgetedMethod,
} from "../../../src/bot/notifier/slackBudget.js";

const METHODS: BudgetedMethod[] = [
  "chat.startStream",
  "chat.stopStream",
  "chat.appendStream",
  "chat.update",
  "chat.postMessage",
];

/** The most calls that went through in any 60-second window. */
function maxPerMinute(times: number[]): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= 60_000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe("the Slack budget of a workspace", () => {
  it("never lets more calls through in any minute than the method's tier, however they are asked", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...METHODS),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 400 }),
        (method, gaps) => {
          let now = 0;
          const budget = new SlackBudget(() => now);
          const passed: number[] = [];
          for (const gap of gaps) {
            now += gap;
            if (budget.take("T1", method, "C1", gap % 2 === 0) === 0) passed.push(now);
          }
          expect(maxPerMinute(passed)).toBeLessThanOrEqual(TIER_PER_MINUTE[rateClassOf(method)]);
        },
      ),
    );
  });

  it("lets a caller that waits as told through (positive control: the budget is not simply closed)", () => {
    let now = 0;
    const budget = new SlackBudget(() => now);
    let passed = 0;
    let refused = 0;
    while (passed < 300 && refused < 1_000) {
      const wait = budget.take("T1", "chat.appendStream");
      if (wait === 0) passed++;
      else {
        refused++;
        now += wait;
        // Told to wait this long, the call goes through.
        expect(budget.take("T1", "chat.appendStream")).toBe(0);
        passed++;
      }
    }
    // 300 calls, each waiting only as long as told: about 90 a minute after the first 5 (the
    // other half of the burst is kept for urgent calls).
    expect(passed).toBe(300);
    expect(now).toBeGreaterThan(((300 - 5) / 90) * 60_000 - 1_500);
    expect(now).toBeLessThan(((300 - 5) / 90) * 60_000 + 1_500);
  });

  it("keeps one budget per workspace and per tier: a busy one never starves another", () => {
    let now = 0;
    const budget = new SlackBudget(() => now);
    for (let i = 0; i < 10; i++) expect(budget.take("T1", "chat.appendStream", undefined, true)).toBe(0);
    expect(budget.take("T1", "chat.appendStream", undefined, true)).toBeGreaterThan(0);
    expect(budget.take("T2", "chat.appendStream")).toBe(0);
    expect(budget.take("T1", "chat.update")).toBe(0);
    // startStream and stopStream share Tier 2.
    expect(budget.take("T1", "chat.startStream", undefined, true)).toBe(0);
    expect(budget.take("T1", "chat.stopStream", undefined, true)).toBe(0);
    expect(budget.take("T1", "chat.startStream", undefined, true)).toBeGreaterThan(0);
    now += 60_000;
    expect(budget.take("T1", "chat.appendStream")).toBe(0);
  });

  it("counts posts per channel", () => {
    const budget = new SlackBudget(() => 0);
    for (let i = 0; i < 6; i++) expect(budget.take("T1", "chat.postMessage", "C1", true)).toBe(0);
    expect(budget.take("T1", "chat.postMessage", "C1", true)).toBeGreaterThan(0);
    expect(budget.take("T1", "chat.postMessage", "C2")).toBe(0);
  });

  it("holds a class back for Slack's Retry-After after a 429, then lets it go", () => {
    let now = 1_000;
    const budget = new SlackBudget(() => now);
    budget.pause("T1", "chat.appendStream", 5_000);
    expect(budget.take("T1", "chat.appendStream", undefined, true)).toBe(5_000);
    now += 4_999;
    expect(budget.take("T1", "chat.appendStream", undefined, true)).toBe(1);
    now += 1;
    expect(budget.take("T1", "chat.appendStream")).toBe(0);
  });

  it("keeps half the burst for urgent calls: progress never holds back the end of a turn", () => {
    let now = 0;
    const budget = new SlackBudget(() => now);
    // Tier 3 (50/min): a burst of 5; progress edits take 3 and leave 2.
    let progress = 0;
    while (budget.take("T1", "chat.update") === 0) progress++;
    expect(progress).toBe(3);
    expect(budget.take("T1", "chat.update", undefined, true)).toBe(0);
    expect(budget.take("T1", "chat.update", undefined, true)).toBe(0);
    expect(budget.take("T1", "chat.update", undefined, true)).toBeGreaterThan(0);
    // Under a steady load of progress, an urgent call waits at most for one token's refill.
    now += 60_000;
    for (let i = 0; i < 1_000; i++) {
      now += 100;
      budget.take("T1", "chat.update");
    }
    expect(budget.take("T1", "chat.update", undefined, true)).toBe(0);
  });
});
