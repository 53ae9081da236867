import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { applyCodexEvent, initialCodexState, parseCodexLine } from "../../../src/engine/codex/codexEvents.js";
import {
  parseProgress,
  serializeProgress,
  tokensOf,
  unwrapCommand,
} from "../../../src/engine/conversations/progress.js";
import { trailingThrottle } from "../../../src/engine/system/throttle.js";

const fold = (lines: string[]) =>
  lines.reduce((s, l) => {
    const e = parseCodexLine(l);
    return e ? applyCodexEvent(s, e) : s;
  }, initialCodexState());

describe("progress from Codex's JSONL", () => {
  it("names the kind of activity and its detail, without the shell wrapper", () => {
    const s = fold([
      '{"type":"turn.started"}',
      `{"type":"item.started","item":{"id":"i1","type":"command_execution","command":"/bin/bash -lc 'sleep 2'"}}`,
    ]);
    expect(s.progress).toEqual({ kind: "command", detail: "sleep 2", plan: null, text: null });
    const r = fold([
      `{"type":"item.started","item":{"id":"i1","type":"command_execution","command":"bash -lc 'rg foo src'"}}`,
    ]);
    expect(r.progress?.kind).toBe("searching");
    const e = fold([
      '{"type":"item.completed","item":{"id":"i2","type":"file_change","changes":[{"path":"/w/src/a.ts","kind":"update"}]}}',
    ]);
    expect(e.progress).toEqual({ kind: "editing", detail: "a.ts", plan: null, text: null });
  });

  it("keeps the plan (todo_list) across later activities, with its checked steps", () => {
    const s = fold([
      '{"type":"item.started","item":{"id":"t","type":"todo_list","items":[{"text":"Read","completed":true},{"text":"Fix","completed":false}]}}',
      `{"type":"item.started","item":{"id":"c","type":"command_execution","command":"npm test"}}`,
    ]);
    expect(s.progress).toEqual({
      kind: "command",
      detail: "npm test",
      text: null,
      plan: [
        { text: "Read", done: true },
        { text: "Fix", done: false },
      ],
    });
  });

  it("keeps the agent's latest interim message across later activities", () => {
    const s = fold([
      '{"type":"item.completed","item":{"id":"m","type":"agent_message","text":"Je regarde\\nles tests"}}',
      '{"type":"item.started","item":{"id":"c","type":"command_execution","command":"npm test"}}',
    ]);
    expect(s.progress).toEqual({
      kind: "command",
      detail: "npm test",
      plan: null,
      text: "Je regarde\nles tests",
    });
  });

  it("round-trips through storage; plain legacy text is not progress", () => {
    const p = { kind: "thinking" as const, detail: null, plan: null };
    expect(parseProgress(serializeProgress(p))).toEqual(p);
    expect(parseProgress("$ npm test")).toBeNull();
    expect(parseProgress('{"kind":"nonsense"}')).toBeNull();
    expect(unwrapCommand(`/bin/bash -lc 'echo '\\''hi'\\'''`)).toBe("echo 'hi'");
    expect(tokensOf({ input_tokens: 10, output_tokens: 5 })).toBe(15);
    expect(tokensOf(null)).toBeNull();
  });
});

describe("trailing throttle", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it("writes the first value at once and the newest one when the window ends, never dropping it", () => {
    const written: string[] = [];
    const th = trailingThrottle<string>(1000, (v) => written.push(v));
    th.push("a");
    expect(written).toEqual(["a"]);
    vi.advanceTimersByTime(100);
    th.push("b");
    th.push("c");
    // Positive control: inside the window nothing more is written yet.
    expect(written).toEqual(["a"]);
    vi.advanceTimersByTime(899);
    expect(written).toEqual(["a"]);
    vi.advanceTimersByTime(1);
    // The newest value ("c") is written at the window's end, with no further event needed.
    expect(written).toEqual(["a", "c"]);
    vi.advanceTimersByTime(5000);
    expect(written).toEqual(["a", "c"]);
    th.push("d");
    expect(written).toEqual(["a", "c", "d"]);
  });

  it("flush writes what waits, once", () => {
    const written: string[] = [];
    const th = trailingThrottle<string>(1000, (v) => written.push(v));
    th.push("a");
    th.push("b");
    th.flush();
    th.flush();
    vi.advanceTimersByTime(2000);
    expect(written).toEqual(["a", "b"]);
  });
});
