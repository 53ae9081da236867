import { describe, expect, it } from "vitest";
import { interimDue, type InterimInput } from "../../../src/bot/notifier/interimPosts.js";

const MIN = 60_000;
const keyOf = (text: string) => `interim:q:${text}`;
const base = (over: Partial<InterimInput> = {}): InterimInput => ({
  progress: { kind: "command", detail: "npm test", plan: null, text: "Je regarde les tests" },
  startedAt: 0,
  now: 2 * MIN,
  intervalMs: MIN,
  last: null,
  keyOf,
  ...over,
});

describe("when an interim message is posted in the thread", () => {
  it("posts the message the agent moved past once the turn has lasted the interval (positive control)", () => {
    expect(interimDue(base())).toBe("Je regarde les tests");
  });

  it("never posts the message still being written: it may be the final answer", () => {
    expect(
      interimDue(base({ progress: { kind: "writing", detail: null, plan: null, text: "fini" } })),
    ).toBeNull();
  });

  it("waits until the turn lasts the interval", () => {
    expect(interimDue(base({ now: MIN - 1 }))).toBeNull();
    expect(interimDue(base({ now: MIN }))).not.toBeNull();
  });

  it("posts at most once per interval, and never the same text twice", () => {
    expect(interimDue(base({ last: { at: 2 * MIN - 1_000, key: keyOf("avant") } }))).toBeNull();
    expect(interimDue(base({ last: { at: MIN, key: keyOf("avant") } }))).toBe("Je regarde les tests");
    expect(interimDue(base({ last: { at: 0, key: keyOf("Je regarde les tests") } }))).toBeNull();
  });

  it("is off at 0 seconds, and without text", () => {
    expect(interimDue(base({ intervalMs: 0 }))).toBeNull();
    expect(
      interimDue(base({ progress: { kind: "command", detail: null, plan: null, text: null } })),
    ).toBeNull();
    expect(interimDue(base({ startedAt: null }))).toBeNull();
  });
});
