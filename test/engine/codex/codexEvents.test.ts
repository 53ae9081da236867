import { describe, expect, it } from "vitest";
import { applyCodexEvent, initialCodexState, parseCodexLine } from "../../../src/engine/codex/codexEvents.js";
import { codexExecArgs } from "../../../src/engine/codex/codexArgs.js";
import { codexEnvironment } from "../../../src/engine/isolation/environment.js";
import { outcomeOf } from "../../../src/engine/worker/worker.js";
import { INTERRUPTED_WORKER_REASON } from "../../../src/engine/conversations/outcome.js";
import type { TurnResult } from "../../../src/engine/codex/codexRunner.js";
import { failureText } from "../../../src/i18n/failures.js";

const fold = (lines: string[]) =>
  lines.reduce((s, l) => {
    const e = parseCodexLine(l);
    return e ? applyCodexEvent(s, e) : s;
  }, initialCodexState());

const limits = { turnTimeoutMs: 60_000, idleTimeoutMs: 10_000, locale: "fr" as const };
const turn = (over: Partial<TurnResult>): TurnResult => ({
  state: initialCodexState(),
  ended: "exited",
  watchdog: null,
  exitCode: 0,
  stderrTail: "",
  ...over,
});

describe("Codex JSONL", () => {
  it("keeps the thread id, the last agent message, usage, files changed and the latest activity", () => {
    const s = fold([
      '{"type":"thread.started","thread_id":"th-1"}',
      '{"type":"turn.started"}',
      '{"type":"item.completed","item":{"id":"i0","type":"agent_message","text":"first"}}',
      '{"type":"item.started","item":{"id":"i1","type":"command_execution","command":"npm test","status":"in_progress"}}',
      '{"type":"item.completed","item":{"id":"i2","type":"file_change","changes":[{"path":"/w/src/a.ts","kind":"update"}],"status":"completed"}}',
      "not json at all",
      '{"type":"some.future.event","x":1}',
      '{"type":"item.completed","item":{"id":"i3","type":"agent_message","text":"final answer"}}',
      '{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":5}}',
    ]);
    expect(s).toMatchObject({
      threadId: "th-1",
      lastAgentMessage: "final answer",
      files: ["/w/src/a.ts"],
      turnCompleted: true,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    expect(s.progress).toEqual({ kind: "writing", detail: null, plan: null, text: "final answer" });
  });

  it("a turn.failed keeps Codex's message; a top-level error is only a warning", () => {
    const s = fold([
      '{"type":"error","message":"Reconnecting... 1/5"}',
      '{"type":"turn.failed","error":{"message":"quota exceeded"}}',
    ]);
    expect(s).toMatchObject({
      turnFailed: "quota exceeded",
      turnCompleted: false,
      lastError: "Reconnecting... 1/5",
    });
  });
});

describe("turn outcome", () => {
  it("completed → done with the last agent message; failed → codex_failed with its message", () => {
    expect(
      outcomeOf(
        turn({
          ended: "completed",
          state: { ...initialCodexState(), turnCompleted: true, lastAgentMessage: "hi" },
        }),
        false,
        limits,
      ),
    ).toMatchObject({ status: "done", content: "hi", errorCode: null });
    expect(
      outcomeOf(
        turn({ ended: "failed", state: { ...initialCodexState(), turnFailed: "boom" } }),
        false,
        limits,
      ),
    ).toMatchObject({ status: "failed", error: "boom", errorCode: "codex_failed" });
  });

  it("exit without a turn event → interrupted; an active writer conflict → thread_busy", () => {
    expect(outcomeOf(turn({}), false, limits)).toMatchObject({ status: "failed", errorCode: "interrupted" });
    expect(outcomeOf(turn({}), false, limits).error).toContain(INTERRUPTED_WORKER_REASON);
    expect(
      outcomeOf(turn({ stderrTail: "thread th-1 already has an active writer" }), false, limits),
    ).toMatchObject({ errorCode: "thread_busy" });
  });

  it("watchdog says which limit; a stop asked by a user is cancelled, a signal otherwise interrupted", () => {
    expect(outcomeOf(turn({ ended: "watchdog", watchdog: "idle" }), false, limits)).toMatchObject({
      errorCode: "watchdog",
    });
    expect(
      failureText("fr", outcomeOf(turn({ ended: "watchdog", watchdog: "idle" }), false, limits).error),
    ).toContain("10 s");
    expect(
      failureText("fr", outcomeOf(turn({ ended: "watchdog", watchdog: "turn" }), false, limits).error),
    ).toContain("60 s");
    expect(outcomeOf(turn({ ended: "cancelled" }), true, limits)).toMatchObject({
      status: "cancelled",
      errorCode: "cancelled",
    });
    expect(outcomeOf(turn({ ended: "cancelled" }), false, limits)).toMatchObject({
      status: "failed",
      errorCode: "interrupted",
    });
  });
});

describe("turn outcome language", () => {
  it("the stored error has no language; the error a person reads comes from the catalog of their language", () => {
    const watchdog = outcomeOf(turn({ ended: "watchdog", watchdog: "idle" }), false, limits).error;
    const interrupted = outcomeOf(turn({}), false, limits).error;
    expect(failureText("en", watchdog)).toBe(
      "Codex emitted nothing for 10 s: the watchdog stopped the turn.",
    );
    expect(failureText("fr", watchdog)).toBe(
      "Codex n’a rien émis pendant 10 s : tour arrêté par le chien de garde.",
    );
    expect(failureText("en", interrupted)).toBe(
      "The worker stopped before the task was done (process interrupted).",
    );
    expect(failureText("fr", interrupted)).toBe(
      "Le worker s’est arrêté avant la fin de la tâche (processus interrompu).",
    );
    expect(failureText("en", outcomeOf(turn({ stderrTail: "fatal: boom" }), false, limits).error)).toBe(
      "The worker stopped before the task was done (process interrupted): fatal: boom",
    );
  });

  it("Codex's own message and rows written before notes pass through unchanged", () => {
    expect(failureText("en", "quota exceeded")).toBe("quota exceeded");
    expect(failureText("en", "Le worker s’est arrêté avant la fin de la tâche (processus interrompu).")).toBe(
      "Le worker s’est arrêté avant la fin de la tâche (processus interrompu).",
    );
    expect(failureText("en", "codexpi:not.a.failure")).toBe("codexpi:not.a.failure");
    expect(failureText("en", null)).toBeNull();
  });
});

describe("Codex command line", () => {
  it("a new thread: exec --json with -C and the restricted sandbox, prompt on stdin", () => {
    expect(codexExecArgs({ cwd: "/w", fullAccess: false, threadId: null })).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "-C",
      "/w",
      "--sandbox",
      "workspace-write",
      "-",
    ]);
  });

  it("a follow-up: sandbox and -C before resume <thread>; full access bypasses the sandbox", () => {
    expect(codexExecArgs({ cwd: "/w", fullAccess: true, threadId: "th-1" })).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "-C",
      "/w",
      "--dangerously-bypass-approvals-and-sandbox",
      "resume",
      "th-1",
      "-",
    ]);
  });

  it("S-OPT-05: a conversation's model and effort: -m and model_reasoning_effort after resume <thread>, before the prompt", () => {
    expect(
      codexExecArgs({
        cwd: "/w",
        fullAccess: false,
        threadId: "th-1",
        model: "gpt-5.6-terra",
        effort: "high",
      }),
    ).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "-C",
      "/w",
      "--sandbox",
      "workspace-write",
      "resume",
      "th-1",
      "-m",
      "gpt-5.6-terra",
      "-c",
      'model_reasoning_effort="high"',
      "-",
    ]);
    // Null options: Codex's configured ones (no flag at all).
    expect(
      codexExecArgs({ cwd: "/w", fullAccess: false, threadId: null, model: null, effort: null }),
    ).not.toContain("-m");
  });

  it("Codex never sees Slack tokens or codexpi's settings, only allow-listed variables", () => {
    const env = codexEnvironment(
      {
        PATH: "/bin",
        LC_ALL: "C",
        SLACK_BOT_TOKEN: "xoxb-secret",
        SLACK_SIGNING_SECRET: "s",
        CODEXPI_ADMINS: "U1",
        DATABASE_URL: "sqlite:x",
        OPENAI_API_KEY: "k",
        AWS_SECRET_ACCESS_KEY: "a",
        GITHUB_TOKEN: "g",
      },
      ["OPENAI_API_KEY", "SLACK_BOT_TOKEN"],
      { CODEX_HOME: "/h" },
    );
    expect(env).toEqual({ PATH: "/bin", LC_ALL: "C", OPENAI_API_KEY: "k", CODEX_HOME: "/h" });
  });
});

describe("a model Codex cannot reach", () => {
  it("S-FAIL-01: Codex's retry notices become the activity 'reconnecting' with its error and the attempt; any other event ends the series", () => {
    const waiting = fold([
      '{"type":"turn.started"}',
      '{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}',
      '{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}',
    ]);
    expect(waiting.progress).toMatchObject({
      kind: "reconnecting",
      detail: "Connection failed: error sending request",
      attempt: 2,
    });
    expect(waiting.reconnects).toBe(2);
    // Codex's own count when it gives one.
    const counted = fold([
      '{"type":"error","message":"Reconnecting... 3/5 (stream disconnected before completion: 500)"}',
    ]);
    expect(counted.progress).toMatchObject({
      kind: "reconnecting",
      detail: "stream disconnected before completion: 500",
      attempt: 3,
    });
    const back = fold([
      '{"type":"error","message":"Reconnecting... 1/5 (boom)"}',
      '{"type":"item.completed","item":{"id":"r","type":"reasoning"}}',
    ]);
    expect(back.reconnects).toBe(0);
    expect(back.progress?.kind).toBe("thinking");
    // Positive control: another error is a warning, not a retry.
    const warned = fold(['{"type":"error","message":"something odd"}']);
    expect(warned.progress).toBeNull();
    expect(warned.lastError).toBe("something odd");
  });

  it("S-FAIL-02: the connection limit ends a turn with Codex's error inside its retry notice", () => {
    const state = fold([
      '{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}',
    ]);
    const out = outcomeOf(turn({ state, ended: "watchdog", watchdog: "connect" }), false, {
      ...limits,
      connectTimeoutMs: 8_000,
    });
    expect(out.status).toBe("failed");
    expect(out.errorCode).toBe("watchdog");
    expect(failureText("en", out.error)).toBe(
      "Codex could not reach the model for 8 s: Connection failed: error sending request",
    );
  });
});
