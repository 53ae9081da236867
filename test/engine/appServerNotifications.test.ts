import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AppServerView,
  applyNotification,
  isProgress,
  knownNotification,
} from "../../src/engine/codex/appServer/notifications.js";
import { initialCodexState } from "../../src/engine/codex/codexEvents.js";
import { tokensOf } from "../../src/engine/conversations/progress.js";
import { turnWatchdogs } from "../../src/engine/codex/turnProcess.js";

const start = (): AppServerView => ({ state: initialCodexState(), writing: null });
const fold = (view: AppServerView, method: string, params: unknown) => {
  const n = knownNotification(method, params);
  if (!n) throw new Error(`unknown ${method}`);
  return applyNotification(view, n);
};
const ids = { threadId: "th", turnId: "tu" };
const message = (id: string, text: string) => ({ type: "agentMessage", id, text });

describe("folding app-server notifications into exec's CodexState", () => {
  it("the agent's text grows delta by delta as interim progress; it becomes the answer only once complete", () => {
    let v = fold(start(), "item/agentMessage/delta", { ...ids, itemId: "m1", delta: "Hello " });
    v = fold(v, "item/agentMessage/delta", { ...ids, itemId: "m1", delta: "world" });
    expect(v.state.progress).toMatchObject({ kind: "writing", text: "Hello world" });
    expect(v.state.lastAgentMessage).toBeNull();
    v = fold(v, "item/completed", { ...ids, item: message("m1", "Hello world") });
    expect(v.state.lastAgentMessage).toBe("Hello world");
    expect(v.writing).toBeNull();
    v = fold(v, "item/agentMessage/delta", { ...ids, itemId: "m2", delta: "Next" });
    expect(v.state.progress?.text).toBe("Next"); // a new message starts afresh
  });

  it("the text is kept as written, lines and markdown included, as exec keeps it (a stream shows it whole)", () => {
    let v = fold(start(), "item/agentMessage/delta", { ...ids, itemId: "m1", delta: "## Plan\n\n- one" });
    v = fold(v, "item/agentMessage/delta", { ...ids, itemId: "m1", delta: "\n- two" });
    expect(v.state.progress?.text).toBe("## Plan\n\n- one\n- two");
    v = fold(v, "item/agentMessage/delta", { ...ids, itemId: "m1", delta: "x".repeat(5_000) });
    expect(v.state.progress?.text?.length).toBeLessThanOrEqual(4_000);
  });

  it("the plan, the usage (exec's names: tokensOf reads it) and the thread are taken as exec takes them", () => {
    let v = fold(start(), "thread/started", { thread: { id: "th-9" } });
    v = fold(v, "turn/plan/updated", {
      ...ids,
      explanation: null,
      plan: [
        { step: "one", status: "completed" },
        { step: "two", status: "inProgress" },
      ],
    });
    const total = { inputTokens: 100, cachedInputTokens: 40, outputTokens: 20, reasoningOutputTokens: 5 };
    v = fold(v, "thread/tokenUsage/updated", { ...ids, tokenUsage: { total, last: total } });
    expect(v.state.threadId).toBe("th-9");
    expect(v.state.progress?.plan).toEqual([
      { text: "one", done: true },
      { text: "two", done: false },
    ]);
    expect(v.state.usage).toEqual({
      input_tokens: 100,
      cached_input_tokens: 40,
      output_tokens: 20,
      reasoning_output_tokens: 5,
    });
    expect(tokensOf(v.state.usage)).toBe(120);
  });

  it("a file change counts as written only once completed; a declined one never", () => {
    const change = (id: string, status: string) => ({
      type: "fileChange",
      id,
      status,
      changes: [{ path: `/w/${id}.ts`, kind: { type: "add" }, diff: "x" }],
    });
    let v = fold(start(), "item/started", { ...ids, item: change("a", "inProgress") });
    expect(v.state.progress).toMatchObject({ kind: "editing", detail: "a.ts" });
    expect(v.state.files).toEqual([]);
    v = fold(v, "item/completed", { ...ids, item: change("a", "completed") });
    v = fold(v, "item/completed", { ...ids, item: change("b", "declined") });
    expect(v.state.files).toEqual(["/w/a.ts"]);
  });

  it("a failed turn carries Codex's message; an interrupted one is neither completed nor failed", () => {
    const turn = (status: string, error: { message: string } | null) => ({
      threadId: "th",
      turn: { id: "tu", status, error },
    });
    expect(fold(start(), "turn/completed", turn("completed", null)).state.turnCompleted).toBe(true);
    expect(fold(start(), "turn/completed", turn("failed", { message: "quota" })).state.turnFailed).toBe(
      "quota",
    );
    const interrupted = fold(start(), "turn/completed", turn("interrupted", null)).state;
    expect([interrupted.turnCompleted, interrupted.turnFailed]).toEqual([false, null]);
  });

  it("only the turn's own events are progress for the idle watchdog: not retries, not account notices", () => {
    expect(["item/started", "item/commandExecution/outputDelta", "turn/plan/updated"].every(isProgress)).toBe(
      true,
    );
    expect(["error", "account/rateLimits/updated", "thread/status/changed"].some(isProgress)).toBe(false);
    expect(knownNotification("account/rateLimits/updated", {})).toBeNull();
  });
});

describe("turn watchdogs", () => {
  afterEach(() => vi.useRealTimers());

  it("paused, neither limit runs; resumed, the idle limit starts afresh and the turn limit goes on from where it was", () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    const w = turnWatchdogs({ turnTimeoutMs: 300, idleTimeoutMs: 150 }, (which) => fired.push(which));
    vi.advanceTimersByTime(100);
    w.touch();
    vi.advanceTimersByTime(100); // turn: 200 of 300 used; idle: 100 of 150
    w.pause();
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]);
    w.resume();
    vi.advanceTimersByTime(99);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(2); // the 100 ms left of the turn limit
    expect(fired).toEqual(["turn"]);
    w.clear();
  });

  it("cleared, they stay cleared: an approval answered after the turn ended restarts nothing", () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    const w = turnWatchdogs({ turnTimeoutMs: 300, idleTimeoutMs: 150 }, (which) => fired.push(which));
    w.pause();
    w.clear();
    w.resume();
    w.touch();
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]);
  });

  it("positive control: without a pause the idle limit fires", () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    const w = turnWatchdogs({ turnTimeoutMs: 300, idleTimeoutMs: 150 }, (which) => fired.push(which));
    vi.advanceTimersByTime(151);
    expect(fired).toEqual(["idle"]);
    w.clear();
  });
});
