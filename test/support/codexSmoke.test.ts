/**
 * Smoke tests: the real Codex binary (pinned @openai/codex) against the fake Responses API.
 * They pin down the facts the worker code relies on (JSONL events, resume, failure, shell tool,
 * sandbox) so a Codex upgrade that changes them fails here first.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { execa, type ResultPromise } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codexBinaryPath } from "./codexBinary.js";
import { makeCodexHome, type CodexHome } from "./codexHome.js";
import { functionCallOutputs, inputText, startFakeModel, type FakeModel } from "./fakeModel.js";

const RUN_TIMEOUT_MS = 20_000;

interface CodexEvent {
  type: string;
  thread_id?: string;
  item?: {
    id: string;
    type: string;
    text?: string;
    command?: string;
    aggregated_output?: string;
    exit_code?: number | null;
    status?: string;
  };
  usage?: Record<string, number>;
  error?: { message: string };
  message?: string;
}

interface CodexRun {
  exitCode: number | undefined;
  signal: string | undefined;
  events: CodexEvent[];
  stderr: string;
  ms: number;
}

let fake: FakeModel;
let home: CodexHome;
let workspace: string;
let scratch: string[] = [];
const running = new Set<ResultPromise>();

/** PIDs of every descendant of `pid` (walks /proc; Linux only). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // process exited while we looked
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const c of children.get(stack.pop() as number) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * SIGKILL Codex's process group and every descendant. The group alone is not enough: Codex
 * starts each command in a new session (setsid), and with the sandbox bypassed nothing else
 * kills a command's own children when Codex dies.
 */
function killTree(pid: number): void {
  const tree = descendants(pid);
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // group already gone
  }
  tree.forEach(killQuietly);
}

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/**
 * Start `codex exec --json --skip-git-repo-check --strict-config -C <workspace> <args…>` with `prompt` on
 * stdin (then EOF). `--strict-config` makes a Codex upgrade that drops a config key fail loudly.
 */
function startCodex(args: string[], prompt: string): { sub: ResultPromise; result: Promise<CodexRun> } {
  const started = Date.now();
  const sub = execa(
    codexBinaryPath(),
    ["exec", "--json", "--skip-git-repo-check", "--strict-config", "-C", workspace, ...args],
    {
      input: prompt,
      env: {
        PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
        HOME: home.dir,
        LANG: "C.UTF-8",
        ...home.env,
      },
      extendEnv: false,
      cwd: workspace,
      detached: true, // own process group, so afterEach can kill the whole group
      reject: false,
    },
  );
  running.add(sub);
  const watchdog = setTimeout(() => {
    if (sub.pid !== undefined) killTree(sub.pid);
  }, RUN_TIMEOUT_MS);
  const result = (async (): Promise<CodexRun> => {
    try {
      const r = await sub;
      const events = String(r.stdout)
        .split("\n")
        .filter((line) => line.trim().startsWith("{"))
        .map((line) => JSON.parse(line) as CodexEvent);
      return {
        exitCode: r.exitCode,
        signal: r.signal,
        events,
        stderr: String(r.stderr),
        ms: Date.now() - started,
      };
    } finally {
      clearTimeout(watchdog);
      running.delete(sub);
    }
  })();
  return { sub, result };
}

function runCodex(args: string[], prompt: string): Promise<CodexRun> {
  return startCodex(args, prompt).result;
}

const restricted = ["--sandbox", "workspace-write"];
const fullAccess = ["--dangerously-bypass-approvals-and-sandbox"];

function ofType(events: CodexEvent[], type: string): CodexEvent[] {
  return events.filter((e) => e.type === type);
}

function completedItems(events: CodexEvent[], itemType: string): NonNullable<CodexEvent["item"]>[] {
  return ofType(events, "item.completed")
    .map((e) => e.item)
    .filter((i): i is NonNullable<CodexEvent["item"]> => i?.type === itemType);
}

beforeEach(async () => {
  fake = await startFakeModel();
  home = await makeCodexHome(fake.url);
  scratch = [home.dir];
  workspace = await tempDir("codexpi-ws-");
});

afterEach(async () => {
  for (const sub of running) {
    if (sub.pid !== undefined) killTree(sub.pid);
  }
  running.clear();
  await fake.close();
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

describe("the real Codex binary against the fake Responses API", () => {
  it("answers a new thread with the fake's text, a thread id and token usage", async () => {
    fake.enqueue({ kind: "text", text: "Hello from the fake model" });

    const run = await runCodex([...restricted, "-"], "Say hello");

    expect(run.exitCode).toBe(0);
    const started = ofType(run.events, "thread.started");
    expect(started).toHaveLength(1);
    expect(started[0]?.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(completedItems(run.events, "agent_message").map((i) => i.text)).toEqual([
      "Hello from the fake model",
    ]);
    const completed = ofType(run.events, "turn.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]?.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(run.events.map((e) => e.type)).toEqual([
      "thread.started",
      "turn.started",
      "item.completed",
      "turn.completed",
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(inputText(fake.requests[0] ?? {})).toContain("Say hello");
    expect(fake.requests[0]?.model).toBe("gpt-5.5");
    expect(fake.log.every((r) => r.method === "POST" && r.path === "/v1/responses")).toBe(true);
    expect(fake.log[0]?.headers.authorization).toBe("Bearer sk-fake-test-key");
  });

  it("resumes a thread by id and sends the earlier turn to the model", async () => {
    fake.enqueue({ kind: "text", text: "First answer: 42" }, { kind: "text", text: "Second answer" });
    const first = await runCodex([...restricted, "-"], "First question about the universe");
    const threadId = ofType(first.events, "thread.started")[0]?.thread_id;
    expect(threadId).toBeDefined();

    const second = await runCodex([...restricted, "resume", threadId as string, "-"], "Second question");

    expect(second.exitCode).toBe(0);
    expect(ofType(second.events, "thread.started")[0]?.thread_id).toBe(threadId);
    expect(completedItems(second.events, "agent_message").map((i) => i.text)).toEqual(["Second answer"]);
    expect(ofType(second.events, "turn.completed")[0]?.usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 10,
    });
    const resumed = inputText(fake.requests[1] ?? {});
    expect(resumed).toContain("First question about the universe");
    expect(resumed).toContain("First answer: 42");
    expect(resumed).toContain("Second question");
  });

  it("reports a failed model response as turn.failed with its message", async () => {
    fake.enqueue({ kind: "fail", message: "the fake model is broken" });

    const run = await runCodex([...restricted, "-"], "Please fail");

    expect(run.exitCode).toBe(1);
    const failed = ofType(run.events, "turn.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error?.message).toContain("the fake model is broken");
    expect(ofType(run.events, "turn.completed")).toHaveLength(0);
    expect(fake.requests).toHaveLength(1); // no retries with stream_max_retries = 0
  });

  it("runs a shell command the model asks for and sends its output back", async () => {
    fake.enqueue(
      { kind: "shell", command: ["bash", "-c", "echo made-by-codex > inside.txt && cat inside.txt"] },
      { kind: "text", text: "File written" },
    );

    const run = await runCodex([...restricted, "-"], "Write a file");

    expect(run.exitCode).toBe(0);
    const [cmd] = completedItems(run.events, "command_execution");
    expect(cmd).toMatchObject({ status: "completed", exit_code: 0 });
    expect(cmd?.aggregated_output).toContain("made-by-codex");
    expect(await readFile(path.join(workspace, "inside.txt"), "utf8")).toBe("made-by-codex\n");
    expect(completedItems(run.events, "agent_message").map((i) => i.text)).toEqual(["File written"]);
    expect(fake.requests).toHaveLength(2);
    const outputs = functionCallOutputs(fake.requests[1] ?? {});
    expect(outputs).toHaveLength(1);
    expect(String(outputs[0]?.output)).toContain("made-by-codex");
  });

  it("keeps a restricted run from writing outside the workspace but lets a full-access run do it", async () => {
    const outside = await tempDir("codexpi-outside-");
    const target = path.join(outside, "escaped.txt");
    const write = { kind: "shell" as const, command: ["bash", "-c", `echo escaped > ${target}`] };
    fake.enqueue(write, { kind: "text", text: "tried" });

    const denied = await runCodex([...restricted, "-"], "Write outside");

    expect(denied.exitCode).toBe(0); // the turn itself completes; only the command fails
    expect(existsSync(target)).toBe(false);
    // For a command whose failure looks like a sandbox denial, Codex 0.171 sometimes emits no
    // command_execution item at all (not even item.started) and sometimes the usual started/failed
    // pair: a race. Either way it never reports success, and the model sees what happened.
    const deniedItems = denied.events.filter((e) => e.item?.type === "command_execution");
    expect([0, 2]).toContain(deniedItems.length);
    const deniedDone = completedItems(denied.events, "command_execution");
    for (const item of deniedDone) {
      expect(item).toMatchObject({ status: "failed", exit_code: 1 });
      expect(item.aggregated_output).toContain("Read-only file system");
    }
    const [deniedOutput] = functionCallOutputs(fake.requests[1] ?? {});
    expect(String(deniedOutput?.output)).toContain("Process exited with code 1");
    expect(String(deniedOutput?.output)).toContain("Read-only file system");

    fake.enqueue(write, { kind: "text", text: "done" });
    const allowed = await runCodex([...fullAccess, "-"], "Write outside");

    expect(allowed.exitCode).toBe(0);
    expect(completedItems(allowed.events, "command_execution")[0]).toMatchObject({
      status: "completed",
      exit_code: 0,
    });
    expect(await readFile(target, "utf8")).toBe("escaped\n");
  });

  it("waits on a hung model request until it is interrupted, then exits without a turn result", async () => {
    fake.enqueue({ kind: "hang" });
    const { sub, result } = startCodex([...restricted, "-"], "Never answered");
    await fake.waitForRequests(1);
    await sleep(500);
    expect(sub.exitCode).toBeNull(); // still waiting: only a watchdog ends this

    sub.kill("SIGINT"); // Codex handles SIGINT (interrupts the turn); SIGTERM/SIGKILL just end it
    const run = await result;

    expect(run.exitCode).toBe(1);
    expect(run.events.map((e) => e.type)).toEqual(["thread.started", "turn.started"]);
  });
});
