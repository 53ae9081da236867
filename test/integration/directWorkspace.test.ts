import { afterEach, describe, expect, it } from "vitest";
import { startConversation } from "../../src/engine/conversations/conversations.js";
import type { Project } from "../../src/engine/schema.js";
import { codexEngine, finished } from "../support/codexEngine.js";
import { inputText, type FakeStep, type ResponsesRequestBody } from "../support/fakeModel.js";

// Issue 18, first increment: in a `direct` project at most one agent works in the checkout at a
// time, whatever the runtime policy allows (here 4 at once, no per-project limit). Real engine,
// real `codexpi worker` processes, real Codex binary against the fake model on 127.0.0.1. Each
// prompt's turn is timed from the model's side: it starts at the first request naming its marker
// and ends at the last one (the follow-up after its agent ran `sleep 3`).

const MARKERS = ["TURN-ALPHA-5521", "TURN-BRAVO-7734"];

/** When each marked turn reached the model, and the fake's answers: `sleep 3` first, then a text. */
function timedModel() {
  const seen = new Map<string, number[]>();
  const respond = (body: ResponsesRequestBody): FakeStep => {
    const text = inputText(body);
    const marker = MARKERS.find((m) => text.includes(m));
    if (marker) seen.set(marker, [...(seen.get(marker) ?? []), Date.now()]);
    // A follow-up carries the shell call's output: the turn ends with a text.
    const followUp = (body.input ?? []).some(
      (i) => typeof i === "object" && i !== null && (i as { type?: string }).type === "function_call_output",
    );
    return followUp ? { kind: "text", text: "fait" } : { kind: "shell", command: ["sleep", "3"] };
  };
  const spans = () =>
    MARKERS.map((m) => {
      const times = seen.get(m) ?? [];
      return { start: Math.min(...times), end: Math.max(...times), requests: times.length };
    });
  return { respond, spans };
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  Math.min(a.end, b.end) - Math.max(a.start, b.start);

describe("a direct project's checkout takes one agent at a time (real Codex)", () => {
  let env: Awaited<ReturnType<typeof codexEngine>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  /** Both prompts queued at once (one in each of `projects`), one dispatch; their turns' spans. */
  async function twoPrompts(projectsOf: (e: NonNullable<typeof env>) => Promise<[Project, Project]>) {
    const model = timedModel();
    env = await codexEngine({ maxConcurrent: 4, fakeModel: { respond: model.respond } });
    const e = env;
    const [first, second] = await projectsOf(e);
    const a = await startConversation(e.db, e.clock, first, `${MARKERS[0]} attends`, "UOWNER");
    const b = await startConversation(e.db, e.clock, second, `${MARKERS[1]} attends`, "UOWNER");
    const claimed = await e.engine.dispatch();
    // The second of one direct project waits for the first's worker to dispatch it on finishing.
    for (const item of [a.item, b.item])
      expect(await finished(e.db, item.id, 90_000)).toMatchObject({ status: "done" });
    const spans = model.spans();
    for (const s of spans) expect(s.requests).toBeGreaterThanOrEqual(2); // each agent ran its sleep
    return { claimed: claimed.started.length, spans };
  }

  it("two prompts of one direct project never overlap: the second starts after the first ended", async () => {
    const { claimed, spans } = await twoPrompts(async (e) => [e.project, e.project]);
    expect(env!.project.workspace_mode).toBe("direct");
    expect(claimed).toBe(1);
    const [a, b] = spans as [{ start: number; end: number }, { start: number; end: number }];
    expect(overlap(a, b)).toBeLessThan(0);
    expect(b.start).toBeGreaterThan(a.end);
  });

  it("positive control: the same two prompts in two projects run at the same time", async () => {
    const { claimed, spans } = await twoPrompts(async (e) => [
      e.project,
      await e.addProject({ name: "other", ownerId: "UOWNER" }),
    ]);
    expect(claimed).toBe(2);
    const [a, b] = spans as [{ start: number; end: number }, { start: number; end: number }];
    // Both agents slept 3 s; started by one dispatch, their turns share most of that.
    expect(overlap(a, b)).toBeGreaterThan(1000);
  });
});
