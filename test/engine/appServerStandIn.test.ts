/**
 * The app-server runner against a stand-in `codex app-server` (a small Node script speaking the
 * same JSON-RPC): the cases the real binary will not produce on demand — an app-server that
 * ignores `turn/interrupt`, one that only ever retries, answers to requests codexpi does not serve.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  runAppServerTurn,
  type AppServerTurnOptions,
} from "../../src/engine/codex/appServer/appServerRunner.js";
import { processStartTime } from "../../src/engine/system/processes.js";
import { tempDir } from "../support/engine.js";

const STAND_IN = `#!${process.execPath}
const fs = require("node:fs");
const readline = require("node:readline");
const mode = process.env.STANDIN_MODE;
const out = process.env.STANDIN_OUT;
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const notify = (method, params) => send({ method, params });
const turn = { id: "tu-1", items: [], status: "inProgress", error: null };
const stubborn = mode === "deaf" || mode === "linger";
if (mode === "linger") setInterval(() => undefined, 1000); // stays after its stdin ends
if (stubborn) process.on("SIGINT", () => fs.appendFileSync(out, "SIGINT\\n"));
const answers = [];
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method) fs.appendFileSync(out, m.method + "\\n");
  if (m.method === "initialize") send({ id: m.id, result: {} });
  if (m.method === "thread/start") send({ id: m.id, result: { thread: { id: "th-1" } } });
  if (m.method === "turn/start") {
    send({ id: m.id, result: { turn } });
    notify("turn/started", { threadId: "th-1", turn });
    if (mode === "retry")
      setInterval(() => notify("error", { threadId: "th-1", turnId: "tu-1", willRetry: true,
        error: { message: "Reconnecting... 2/5", codexErrorInfo: null, additionalDetails: null } }), 50);
    if (mode === "linger") {
      notify("item/completed", { threadId: "th-1", turnId: "tu-1",
        item: { type: "agentMessage", id: "msg-1", text: "done, but staying" } });
      notify("turn/completed", { threadId: "th-1", turn: { ...turn, status: "completed" } });
    }
    if (mode === "ask") {
      send({ id: 77, method: "item/commandExecution/requestApproval", params: { kind: "command",
        threadId: "th-1", turnId: "tu-1", itemId: "call-1", startedAtMs: 0, environmentId: null,
        command: "git push", cwd: "/w", reason: "push" } });
      send({ id: 78, method: "item/tool/requestUserInput", params: { threadId: "th-1", turnId: "tu-1" } });
    }
  }
  if (!m.method && m.id !== undefined) {
    answers.push(m);
    fs.appendFileSync(out, JSON.stringify(m) + "\\n");
    if (answers.length === 2) {
      notify("item/completed", { threadId: "th-1", turnId: "tu-1",
        item: { type: "agentMessage", id: "msg-1", text: "answered both" } });
      notify("turn/completed", { threadId: "th-1", turn: { ...turn, status: "completed" } });
    }
  }
  // "deaf" never answers turn/interrupt; the others end the turn as Codex does.
  if (m.method === "turn/interrupt" && mode !== "deaf") {
    send({ id: m.id, result: {} });
    notify("turn/completed", { threadId: "th-1", turn: { ...turn, status: "interrupted" } });
  }
});
process.stdin.on("end", () => stubborn || process.exit(0));
`;

let dir = "";
afterEach(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

function standIn(
  mode: string,
  over: Partial<AppServerTurnOptions> = {},
): AppServerTurnOptions & { out: string } {
  dir = tempDir("codexpi-standin-");
  const bin = path.join(dir, "codex");
  fs.writeFileSync(bin, STAND_IN, { mode: 0o755 });
  const out = path.join(dir, "out.log");
  fs.writeFileSync(out, "");
  return {
    out,
    bin,
    invocation: { cwd: dir, fullAccess: false, threadId: null },
    prompt: "go",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", STANDIN_MODE: mode, STANDIN_OUT: out },
    turnTimeoutMs: 30_000,
    idleTimeoutMs: 30_000,
    stderrFile: path.join(dir, "stderr.log"),
    killGraceMs: 300,
    ...over,
  };
}

describe("runAppServerTurn against a stand-in app-server", () => {
  it("an app-server deaf to turn/interrupt is signalled after the grace, then killed: cancelled, nothing left", async () => {
    const abort = new AbortController();
    let pid = 0;
    const opts = standIn("deaf", {
      signal: abort.signal,
      interruptGraceMs: 400,
      onSpawn: (p) => {
        pid = p;
      },
      onTurnStarted: () => abort.abort(),
    });
    const started = Date.now();
    const result = await runAppServerTurn(opts);
    expect(result).toMatchObject({ ended: "cancelled", watchdog: null });
    const log = fs.readFileSync(opts.out, "utf8");
    expect(log).toContain("turn/interrupt"); // the protocol was tried first…
    expect(log).toContain("SIGINT"); // …then the signal, which it ignored too
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(processStartTime(pid)).toBeNull();
  });

  it("an app-server that lingers after its turn completed is ended after the grace; the turn stays completed", async () => {
    let pid = 0;
    const opts = standIn("linger", {
      // The idle limit counts from the spawn, so it must outlast the stand-in's start on a busy
      // machine (200 ms did not in CI); the linger (the grace) outlasts it in turn, so a watchdog
      // still armed after the completion would fire and misname the end.
      interruptGraceMs: 5_000,
      idleTimeoutMs: 2_500,
      onSpawn: (p) => {
        pid = p;
      },
    });
    const result = await runAppServerTurn(opts);
    expect(result).toMatchObject({ ended: "completed", watchdog: null });
    expect(result.state.lastAgentMessage).toBe("done, but staying");
    expect(fs.readFileSync(opts.out, "utf8")).toContain("SIGINT"); // it did linger until signalled
    expect(processStartTime(pid)).toBeNull();
  });

  it("Codex's retry errors are not progress: the idle watchdog ends a turn that only retries, with the last error", async () => {
    // Counted from the spawn: long enough for the stand-in to start and send retries on a busy machine.
    const opts = standIn("retry", { idleTimeoutMs: 2_000, interruptGraceMs: 300 });
    const result = await runAppServerTurn(opts);
    expect(result).toMatchObject({ ended: "watchdog", watchdog: "idle" });
    expect(result.state.lastError).toBe("Reconnecting... 2/5");
    expect(fs.readFileSync(opts.out, "utf8")).toContain("turn/interrupt");
  });

  it("without a handler an approval request is declined; a request codexpi does not serve gets a JSON-RPC error", async () => {
    const opts = standIn("ask");
    const result = await runAppServerTurn(opts);
    expect(result).toMatchObject({ ended: "completed", state: { lastAgentMessage: "answered both" } });
    const answers = fs
      .readFileSync(opts.out, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { id: number; result?: unknown; error?: { code: number } });
    expect(answers.find((a) => a.id === 77)).toEqual({ id: 77, result: { decision: "decline" } });
    expect(answers.find((a) => a.id === 78)?.error?.code).toBe(-32601);
  });

  it("with a handler, the request reaches it (never the JSON-RPC id) and its decision is the answer", async () => {
    const seen: unknown[] = [];
    const opts = standIn("ask", {
      onApproval: async (req) => {
        seen.push(req);
        return "acceptForSession";
      },
    });
    await runAppServerTurn(opts);
    expect(seen).toEqual([
      {
        kind: "command",
        threadId: "th-1",
        turnId: "tu-1",
        itemId: "call-1",
        approvalId: null,
        command: "git push",
        cwd: "/w",
        reason: "push",
        diff: null,
        files: [],
      },
    ]);
    expect(fs.readFileSync(opts.out, "utf8")).toContain('{"id":77,"result":{"decision":"acceptForSession"}}');
  });

  it("a stop while a person is being asked answers `cancel` and aborts the handler's signal", async () => {
    const abort = new AbortController();
    let handlerSignal: AbortSignal | null = null;
    const opts = standIn("ask", {
      signal: abort.signal,
      interruptGraceMs: 2_000,
      onApproval: (_req, signal) => {
        handlerSignal = signal;
        abort.abort(); // the person pressed Stop instead of answering
        return new Promise(() => undefined); // and never answers
      },
    });
    const result = await runAppServerTurn(opts);
    expect(result.ended).toBe("cancelled");
    expect((handlerSignal as AbortSignal | null)?.aborted).toBe(true);
    const log = fs.readFileSync(opts.out, "utf8");
    expect(log).toContain('{"id":77,"result":{"decision":"cancel"}}');
    expect(log).toContain("turn/interrupt");
  });
});
