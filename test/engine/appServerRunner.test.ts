/**
 * The app-server runner with the real Codex binary (`codex app-server`) against the fake model:
 * the same TurnResult and CodexState as the exec runner, approvals, steering, stops and watchdogs.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { tomlString } from "../../src/engine/codex/agentInstructions.js";
import {
  type AppServerTurnOptions,
  type RunningTurn,
  runAppServerTurn,
} from "../../src/engine/codex/appServer/appServerRunner.js";
import type { ApprovalDecision, ApprovalRequest } from "../../src/engine/codex/appServer/approvalTypes.js";
import { codexSupportPath } from "../../src/engine/codex/codexBinary.js";
import type { CodexState } from "../../src/engine/codex/codexEvents.js";
import { runCodexTurn } from "../../src/engine/codex/codexRunner.js";
import { descendants } from "../../src/engine/system/processes.js";
import { tokensOf } from "../../src/engine/conversations/progress.js";
import { jailedCodex } from "../../src/engine/isolation/codexJail.js";
import { findBwrap } from "../../src/engine/isolation/jail.js";
import { codexBinaryPath } from "../support/codexBinary.js";
import { FAKE_KEY_ENV, makeCodexHome } from "../support/codexHome.js";
import { tempDir } from "../support/engine.js";
import { processesWith, until } from "../support/processes.js";
import { type FakeModel, functionCallOutputs, inputText, startFakeModel } from "../support/fakeModel.js";
import { jailAvailable } from "../support/jail.js";

const DEV_RULES = "DEV-RULES-5521: answer briefly.";

interface Rig {
  fake: FakeModel;
  home: { dir: string; env: Record<string, string> };
  workspace: string;
  logs: string;
  states: CodexState[];
}

let rig: Rig | undefined;
let jail = false;
beforeAll(async () => {
  jail = await jailAvailable();
});
afterEach(async () => {
  if (!rig) return;
  await rig.fake.close();
  for (const d of [rig.home.dir, rig.workspace, rig.logs])
    fs.rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  rig = undefined;
});

async function makeRig(): Promise<Rig> {
  const fake = await startFakeModel();
  const home = await makeCodexHome(fake.url);
  rig = { fake, home, workspace: tempDir("codexpi-ws-"), logs: tempDir("codexpi-logs-"), states: [] };
  return rig;
}

/** Options of one turn in the rig (no jail unless the test adds one), recording every state. */
function turn(r: Rig, over: Partial<AppServerTurnOptions> = {}): AppServerTurnOptions {
  return {
    bin: codexBinaryPath(),
    invocation: {
      cwd: r.workspace,
      fullAccess: false,
      threadId: null,
      // What the worker passes to both runners.
      config: { "tools.update_plan.enabled": "true", developer_instructions: tomlString(DEV_RULES) },
    },
    prompt: "go",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: r.home.dir,
      CODEX_HOME: r.home.dir,
      [FAKE_KEY_ENV]: r.home.env[FAKE_KEY_ENV]!,
      NO_PROXY: "127.0.0.1,localhost",
    },
    turnTimeoutMs: 60_000,
    idleTimeoutMs: 60_000,
    stderrFile: path.join(r.logs, "codex.log"),
    killGraceMs: 500,
    onState: (s) => r.states.push(s),
    ...over,
  };
}

const escalated = (script: string) =>
  ({
    kind: "shell",
    command: ["sh", "-c", script],
    extraArgs: { sandbox_permissions: "require_escalated", justification: "needs the network" },
  }) as const;

describe("runAppServerTurn (real codex app-server, fake model)", () => {
  it("a turn completes with the answer, showing its plan, its command and its text while it runs, with usage and the thread id", async () => {
    const r = await makeRig();
    r.fake.enqueue(
      {
        kind: "call",
        name: "update_plan",
        arguments: {
          plan: [
            { step: "read the code", status: "completed" },
            { step: "fix it", status: "in_progress" },
          ],
        },
      },
      { kind: "shell", command: ["echo", "hello-from-command"] },
      { kind: "text", text: "the final answer", usage: { input_tokens: 120, output_tokens: 30 } },
    );
    const result = await runAppServerTurn(turn(r, { prompt: "do the thing" }));

    expect(result).toMatchObject({ ended: "completed", watchdog: null, exitCode: 0 });
    expect(result.state.lastAgentMessage).toBe("the final answer");
    expect(result.state.threadId).toMatch(/\S+/);
    expect(tokensOf(result.state.usage)).toBeGreaterThanOrEqual(150);
    expect(result.state.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });

    const planning = r.states.find((s) => s.progress?.kind === "planning");
    expect(planning?.progress?.plan).toEqual([
      { text: "read the code", done: true },
      { text: "fix it", done: false },
    ]);
    const command = r.states.find((s) => s.progress?.kind === "command");
    expect(command?.progress?.detail).toContain("echo hello-from-command");
    expect(command?.progress?.plan).toHaveLength(2); // the plan stays while the agent works
    // The text arrives as it is written (item/agentMessage/delta), before the message completes.
    expect(r.states.some((s) => s.progress?.text === "the final answer" && s.lastAgentMessage === null)).toBe(
      true,
    );
    expect(inputText(r.fake.requests[0]!)).toContain("do the thing");
    expect(JSON.stringify(r.fake.requests[0])).toContain(DEV_RULES);
  });

  it("threads are shared with exec: an app-server thread resumes in `codex exec resume`, and an exec thread in the app-server", async () => {
    const r = await makeRig();
    r.fake.enqueue(
      { kind: "text", text: "APP-SERVER-ANSWER-771" },
      { kind: "text", text: "exec continues" },
      { kind: "text", text: "EXEC-ANSWER-552" },
      { kind: "text", text: "app-server continues" },
    );
    const first = await runAppServerTurn(turn(r, { prompt: "first" }));
    expect(first.ended).toBe("completed");
    const threadId = first.state.threadId!;
    const second = await runCodexTurn(
      turn(r, { prompt: "second", invocation: { ...turn(r).invocation, threadId } }),
    );
    expect(second).toMatchObject({
      ended: "completed",
      state: { threadId, lastAgentMessage: "exec continues" },
    });
    expect(inputText(r.fake.requests[1]!)).toContain("APP-SERVER-ANSWER-771");

    const third = await runCodexTurn(turn(r, { prompt: "third" }));
    const execThread = third.state.threadId!;
    expect(execThread).not.toBe(threadId);
    const fourth = await runAppServerTurn(
      turn(r, { prompt: "fourth", invocation: { ...turn(r).invocation, threadId: execThread } }),
    );
    expect(fourth).toMatchObject({
      ended: "completed",
      state: { threadId: execThread, lastAgentMessage: "app-server continues" },
    });
    expect(inputText(r.fake.requests[3]!)).toContain("EXEC-ANSWER-552");
    // Codexpi's rules reach every turn, resumed ones included.
    expect(JSON.stringify(r.fake.requests[3])).toContain(DEV_RULES);
  });

  it("stop interrupts the turn through the protocol: it ends as cancelled, and neither Codex nor its command is left, even stopped as the command starts", async () => {
    const r = await makeRig();
    // Stopped as soon as the command's first process (Codex's sandbox wrapper) shows, while its
    // sandbox is still starting it: a stop there once left the command running (under load, a
    // few stops in a hundred), an orphan in a session of its own that the process group missed.
    for (const [round, delayMs] of [0, 0, 0, 5, 10].entries()) {
      // A duration of its own: no other run's command has it.
      const marker = (37 + Math.random()).toFixed(6);
      // The command's answer is never asked for: the stop comes first.
      expect(r.fake.pending()).toBe(0);
      r.fake.enqueue({ kind: "shell", command: ["sleep", marker] });
      const abort = new AbortController();
      let pid = 0;
      const running = runAppServerTurn(
        turn(r, {
          signal: abort.signal,
          // Signals would come only after 20 s: a quick end proves turn/interrupt did it.
          interruptGraceMs: 20_000,
          onSpawn: (p) => {
            pid = p;
          },
        }),
      );
      await until(() => processesWith(marker).length > 0, 20_000, "the command to start", 5);
      await new Promise((res) => setTimeout(res, delayMs));
      const stoppedAt = Date.now();
      abort.abort();
      const result = await running;
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      expect(result).toMatchObject({ ended: "cancelled", watchdog: null });
      expect(result.state.turnCompleted).toBe(false);
      // Gone, not fast: the stop's latency is bounded above; tearing the sandbox down took over 5 s
      // once in CI with both cores busy.
      await until(
        () => processesWith(marker).length === 0,
        15_000,
        `the command to be gone (round ${round})`,
      );
      expect(descendants(pid)).toEqual([]);
      expect(
        fs.existsSync(`/proc/${pid}`) && !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z"),
      ).toBe(false);
    }
  });

  it("nothing of a turn outlives it: a command that left Codex's process group and tree (its own session, its parent gone) goes with the turn", async () => {
    const r = await makeRig();
    const marker = (38 + Math.random()).toFixed(6);
    // Full access: Codex's sandbox (a PID namespace per command) would end it with its command.
    r.fake.enqueue(
      {
        kind: "shell",
        command: ["sh", "-c", `setsid sleep ${marker} </dev/null >/dev/null 2>&1 & echo DETACHED`],
      },
      { kind: "text", text: "done" },
    );
    let detached: number[] = [];
    const result = await runAppServerTurn(
      turn(r, {
        invocation: { ...turn(r).invocation, fullAccess: true },
        onState: (s) => {
          if (s.lastAgentMessage === "done") detached = processesWith(marker);
        },
      }),
    );
    expect(result).toMatchObject({ ended: "completed", state: { lastAgentMessage: "done" } });
    expect(JSON.stringify(functionCallOutputs(r.fake.requests[1]!))).toContain("DETACHED");
    expect(detached.length).toBeGreaterThan(0); // positive control: it outlived its command, and Codex's turn
    await until(() => processesWith(marker).length === 0, 5_000, "the detached command to be gone");
  });

  it("steering adds the person's words to the running turn (turn/steer): the model's next request carries them", async () => {
    const r = await makeRig();
    r.fake.enqueue({ kind: "shell", command: ["sleep", "1.5"] }, { kind: "text", text: "steered answer" });
    let running: RunningTurn | null = null;
    const result = runAppServerTurn(turn(r, { onTurnStarted: (t) => (running = t) }));
    await until(() => running !== null && r.states.some((s) => s.progress?.kind === "command"));
    await (running as unknown as RunningTurn).steer("STEER-NOTE-8812: also update the README");
    const done = await result;
    expect(done).toMatchObject({ ended: "completed" });
    const later = r.fake.requests.slice(1).map(inputText).join("\n");
    expect(later).toContain("STEER-NOTE-8812");
    expect(inputText(r.fake.requests[0]!)).not.toContain("STEER-NOTE-8812");
  });
});

describe("watchdogs of the app-server runner", () => {
  const IDLE_MS = 1_500;

  it("the idle watchdog stops a turn whose model hangs (and Codex goes)", async () => {
    const r = await makeRig();
    r.fake.enqueue({ kind: "hang" });
    const started = Date.now();
    const result = await runAppServerTurn(turn(r, { idleTimeoutMs: IDLE_MS, interruptGraceMs: 500 }));
    expect(result).toMatchObject({ ended: "watchdog", watchdog: "idle" });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("neither watchdog fires while an approval waits for a person longer than both limits (positive control above)", async () => {
    const r = await makeRig();
    r.fake.enqueue(escalated("echo APPROVED-LATE"), { kind: "text", text: "done after waiting" });
    const result = await runAppServerTurn(
      turn(r, {
        idleTimeoutMs: IDLE_MS,
        turnTimeoutMs: 6_000,
        onApproval: async () => {
          await new Promise((res) => setTimeout(res, 7_000));
          return "accept";
        },
      }),
    );
    expect(result).toMatchObject({ ended: "completed", watchdog: null });
    expect(result.state.lastAgentMessage).toBe("done after waiting");
  });
});

describe("approvals through the app-server runner", () => {
  it("an escalated command asks with its command, directory and reason; accept runs it and the model sees its output", async () => {
    const r = await makeRig();
    r.fake.enqueue(escalated("echo ESCALATED-RAN-$((40+2))"), { kind: "text", text: "ok" });
    const asked: ApprovalRequest[] = [];
    const result = await runAppServerTurn(
      turn(r, {
        onApproval: async (req) => {
          asked.push(req);
          return "accept";
        },
      }),
    );
    expect(result.ended).toBe("completed");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      kind: "command",
      threadId: result.state.threadId,
      cwd: r.workspace,
      reason: "needs the network",
      diff: null,
      files: [],
    });
    // The command as Codex will run it (in its shell wrapper), not yet expanded.
    expect(asked[0]!.command).toContain("ESCALATED-RAN-");
    expect(asked[0]!.command).toContain("40+2");
    expect(asked[0]!.itemId).toMatch(/\S+/);
    expect(asked[0]!.turnId).toMatch(/\S+/);
    expect(JSON.stringify(functionCallOutputs(r.fake.requests[1]!))).toContain("ESCALATED-RAN-42");
  });

  it("acceptForSession is asked once: the same escalated command later in the session runs without asking", async () => {
    const r = await makeRig();
    r.fake.enqueue(escalated("echo SESSION-RAN-$((40+2))"), escalated("echo SESSION-RAN-$((40+2))"), {
      kind: "text",
      text: "ok",
    });
    let asked = 0;
    const result = await runAppServerTurn(
      turn(r, {
        onApproval: async (): Promise<ApprovalDecision> => {
          asked++;
          return "acceptForSession";
        },
      }),
    );
    expect(result.ended).toBe("completed");
    expect(asked).toBe(1);
    // Each call's own output (the model's later requests carry every earlier one too).
    const outputOf = (n: number) =>
      JSON.stringify(functionCallOutputs(r.fake.requests[n]!).find((o) => o.call_id === `call_fake_${n}`));
    expect(outputOf(1)).toContain("SESSION-RAN-42");
    expect(outputOf(2)).toContain("SESSION-RAN-42");
  });

  it("decline refuses the command: it does not run and the model is told", async () => {
    const r = await makeRig();
    r.fake.enqueue(escalated("echo DECLINED-RAN-$((40+2))"), { kind: "text", text: "ok" });
    let asked = 0;
    const result = await runAppServerTurn(
      turn(r, {
        onApproval: async (): Promise<ApprovalDecision> => {
          asked++;
          return "decline";
        },
      }),
    );
    expect(result.ended).toBe("completed");
    expect(asked).toBe(1);
    const told = JSON.stringify(functionCallOutputs(r.fake.requests[1]!));
    expect(told).not.toContain("DECLINED-RAN-42");
    expect(told).toContain("rejected by user");
  });

  it("without a handler the policy is `never`: an escalation is refused without asking anyone", async () => {
    const r = await makeRig();
    r.fake.enqueue(escalated("echo UNASKED-RAN-$((40+2))"), { kind: "text", text: "ok" });
    const result = await runAppServerTurn(turn(r));
    expect(result.ended).toBe("completed");
    const told = JSON.stringify(functionCallOutputs(r.fake.requests[1]!));
    expect(told).not.toContain("UNASKED-RAN-42");
    expect(told).toContain("approval policy is Never");
  });

  it("a file change outside the workspace asks with its diff and files; accepted, it is written", async () => {
    const r = await makeRig();
    const outside = tempDir("codexpi-outside-");
    const target = path.join(outside, "notes.txt");
    try {
      r.fake.enqueue(
        {
          kind: "custom",
          name: "apply_patch",
          input: `*** Begin Patch\n*** Add File: ${target}\n+PATCHED-LINE-1\n+PATCHED-LINE-2\n*** End Patch\n`,
        },
        { kind: "text", text: "patched" },
      );
      const asked: ApprovalRequest[] = [];
      const result = await runAppServerTurn(
        turn(r, {
          onApproval: async (req) => {
            asked.push(req);
            return "accept";
          },
        }),
      );
      expect(result.ended).toBe("completed");
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ kind: "file_change", files: [target], command: null });
      expect(asked[0]!.diff).toContain(target);
      expect(asked[0]!.diff).toContain("PATCHED-LINE-2");
      expect(fs.readFileSync(target, "utf8")).toContain("PATCHED-LINE-1");
      expect(result.state.files).toEqual([target]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("the app-server runner in the jail", () => {
  it("an approved escalation lifts only Codex's sandbox, never the jail: the command writes its workspace but cannot see a sibling directory", async (ctx) => {
    if (!jail) ctx.skip();
    const r = await makeRig();
    const sibling = tempDir("codexpi-sibling-");
    fs.writeFileSync(path.join(sibling, "secret.txt"), "SIBLING-SECRET");
    fs.writeFileSync(path.join(r.workspace, "own.txt"), "OWN-FILE");
    const bin = codexBinaryPath();
    const input = {
      bwrap: findBwrap()!,
      codexBin: bin,
      codexSupportDir: codexSupportPath(bin),
      workspace: r.workspace,
      allowedAlternates: [],
      stateDir: path.join(r.home.dir, "project-state"),
      operatorHome: r.home.dir,
      // The fake model's own settings and key, on the host's network: this test is about the
      // jail's walls around an approved command, not the gateway (environments.test.ts covers the gateway).
      files: { configToml: fs.readFileSync(path.join(r.home.dir, "config.toml"), "utf8"), authJson: "{}" },
      baseEnv: process.env,
      extraEnv: { [FAKE_KEY_ENV]: r.home.env[FAKE_KEY_ENV] as string },
      overrides: [],
      network: true,
      forwards: null,
      dropCapabilities: false,
    };
    try {
      r.fake.enqueue(
        escalated(`cat own.txt; cat ${sibling}/secret.txt; ls /proc | grep -c '^[0-9]' | sed 's/^/PROCS-/'`),
        { kind: "text", text: "ok" },
      );
      const result = await runAppServerTurn(
        turn(r, { wrap: (argv) => jailedCodex(input, argv), onApproval: async () => "accept" }),
      );
      expect(result.ended).toBe("completed");
      const out = JSON.stringify(functionCallOutputs(r.fake.requests[1]!));
      expect(out).toContain("OWN-FILE"); // positive control: the approved command ran
      expect(out).not.toContain("SIBLING-SECRET");
      expect(Number(/PROCS-(\d+)/.exec(out)?.[1])).toBeLessThan(20);
    } finally {
      fs.rmSync(sibling, { recursive: true, force: true });
    }
  });
});
