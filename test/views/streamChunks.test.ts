import { describe, expect, it } from "vitest";
import type { Progress } from "../../src/engine/conversations/progress.js";
import {
  keepAliveChunk,
  nothingStreamed,
  progressChunks,
  type Streamed,
} from "../../src/views/streamChunks.js";

/** Renders successive progress values as a stream would, returning every chunk sent. */
function run(steps: Array<Progress | null>, end = true) {
  let sent: Streamed = nothingStreamed();
  const calls = [];
  for (const p of steps) {
    const { chunks, next } = progressChunks("en", sent, p);
    calls.push(chunks);
    sent = next;
  }
  if (end) calls.push(progressChunks("en", sent, null, true).chunks);
  return { calls, sent };
}

const command = (detail: string, text: string | null = null, plan: Progress["plan"] = null): Progress => ({
  kind: "command",
  detail,
  plan,
  text,
});

describe("a turn's progress as stream chunks", () => {
  it("shows each command as a task that starts, then completes when the next begins or the turn ends", () => {
    const { calls } = run([command("npm test"), command("npm test"), command("git status")]);
    expect(calls[0]).toEqual([
      {
        type: "task_update",
        id: "a1",
        title: "npm test",
        status: "in_progress",
        details: "running a command",
      },
    ]);
    expect(calls[1]).toEqual([]); // nothing changed: nothing to append
    expect(calls[2]).toEqual([
      { type: "task_update", id: "a1", title: "npm test", status: "complete", details: "running a command" },
      {
        type: "task_update",
        id: "a2",
        title: "git status",
        status: "in_progress",
        details: "running a command",
      },
    ]);
    expect(calls[3]).toEqual([
      {
        type: "task_update",
        id: "a2",
        title: "git status",
        status: "complete",
        details: "running a command",
      },
    ]);
  });

  it("shows the plan once as a plan, then only the steps that changed", () => {
    const plan1 = [
      { text: "Read", done: true },
      { text: "Fix", done: false },
      { text: "Test", done: false },
    ];
    const plan2 = [
      { text: "Read", done: true },
      { text: "Fix", done: true },
      { text: "Test", done: false },
    ];
    const think = (plan: Progress["plan"]): Progress => ({
      kind: "planning",
      detail: null,
      plan,
      text: null,
    });
    const { calls } = run([think(plan1), think(plan2)], false);
    expect(calls[0]).toEqual([
      { type: "plan_update", title: "Plan" },
      { type: "task_update", id: "p1", title: "Read", status: "complete" },
      { type: "task_update", id: "p2", title: "Fix", status: "in_progress" },
      { type: "task_update", id: "p3", title: "Test", status: "pending" },
    ]);
    expect(calls[1]).toEqual([
      { type: "task_update", id: "p2", title: "Fix", status: "complete" },
      { type: "task_update", id: "p3", title: "Test", status: "in_progress" },
    ]);
  });

  it("appends only the new suffix of a message once other work follows it, and a new message after a blank line", () => {
    const writing = (text: string): Progress => ({ kind: "writing", detail: null, plan: null, text });
    const followed = (text: string): Progress => ({ kind: "thinking", detail: null, plan: null, text });
    const { calls } = run(
      [
        writing("Je regarde"),
        followed("Je regarde"),
        writing("Je regarde les tests."),
        followed("Je regarde les tests."),
        writing("Tout passe."),
        followed("Tout passe."),
      ],
      false,
    );
    expect(calls.map((c) => c.map((x) => (x.type === "markdown_text" ? x.text : x.type)))).toEqual([
      [],
      ["Je regarde"],
      [],
      [" les tests."],
      [],
      ["\n\nTout passe."],
    ]);
  });

  it("S-QUIET-03: never streams the last text while it is the last thing the agent did (it may be the answer, posted on its own)", () => {
    const { calls } = run([{ kind: "writing", detail: null, plan: null, text: "La réponse." }], true);
    expect(calls.flat().filter((c) => c.type === "markdown_text")).toEqual([]);
    // Positive control: the same text followed by a command is streamed, before the command.
    const { calls: followed } = run([
      { kind: "command", detail: "npm test", plan: null, text: "La réponse." },
    ]);
    expect(followed[0]?.map((c) => c.type)).toEqual(["markdown_text", "task_update"]);
  });

  it("S-FAIL-01: shows retries as one task retitled at each attempt with Codex's error", () => {
    const retry = (n: number): Progress => ({
      kind: "reconnecting",
      detail: "Connection failed: error sending request",
      attempt: n,
      plan: null,
    });
    const { calls } = run([retry(1), retry(2)], false);
    expect(calls[0]).toEqual([
      {
        type: "task_update",
        id: "a1",
        title: "reconnecting to the model: Connection failed: error sending request, attempt 1",
        status: "in_progress",
      },
    ]);
    expect(calls[1]).toEqual([
      {
        type: "task_update",
        id: "a1",
        title: "reconnecting to the model: Connection failed: error sending request, attempt 2",
        status: "in_progress",
      },
    ]);
  });

  it("redacts and clips what a task shows", () => {
    const { calls } = run([
      command(`curl -H 'Authorization: Bearer xoxb-1234567890-abcdefghijkl' ${"x".repeat(300)}`),
    ]);
    const first = calls[0]?.[0];
    expect(first?.type).toBe("task_update");
    const title = first && "title" in first ? first.title : "";
    expect(title).not.toContain("xoxb-1234567890");
    expect(title.length).toBeLessThanOrEqual(150);
  });

  it("keeps an idle stream alive with its running task, and has nothing to say for an empty one", () => {
    const { sent } = run([command("sleep 60")], false);
    expect(keepAliveChunk("fr", sent)).toEqual({
      type: "task_update",
      id: "a1",
      title: "sleep 60",
      status: "in_progress",
      details: "exécute une commande",
    });
    expect(keepAliveChunk("en", nothingStreamed())).toBeNull();
  });
});
