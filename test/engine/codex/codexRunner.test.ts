import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCodexTurn } from "../../../src/engine/codex/codexRunner.js";
import { descendants } from "../../../src/engine/system/processes.js";
import { outcomeOf } from "../../../src/engine/worker/worker.js";
import { failureText } from "../../../src/i18n/failures.js";
import { tempDir } from "../../support/engine.js";
import { processesWith, until } from "../../support/processes.js";

/** A stand-in for Codex that only ever retries: one top-level `error` event every 50 ms, forever. */
function retryingCodex(dir: string): string {
  const bin = path.join(dir, "codex");
  fs.writeFileSync(
    bin,
    `#!/bin/sh
echo '{"type":"thread.started","thread_id":"t-1"}'
echo '{"type":"turn.started"}'
n=0
while true; do
  n=$((n+1))
  echo "{\\"type\\":\\"error\\",\\"message\\":\\"Reconnecting... $n/5 (stream disconnected: error sending request)\\"}"
  sleep 0.05
done
`,
    { mode: 0o755 },
  );
  return bin;
}

describe("runCodexTurn's idle watchdog", () => {
  let dir = "";
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  it("a model that keeps failing ends the turn within the idle bound, with Codex's last error (retries are not progress)", async () => {
    dir = tempDir();
    const started = Date.now();
    const r = await runCodexTurn({
      bin: retryingCodex(dir),
      invocation: { cwd: dir, fullAccess: false, threadId: null },
      prompt: "hello",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      turnTimeoutMs: 30_000,
      idleTimeoutMs: 1_500, // from the spawn: the stand-in must have started and failed at least once
      stderrFile: path.join(dir, "stderr.log"),
      killGraceMs: 200,
    });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(r).toMatchObject({ ended: "watchdog", watchdog: "idle" });
    expect(r.state.lastError).toMatch(/^Reconnecting\.\.\. \d+\/5/);
    const outcome = outcomeOf(r, false, { turnTimeoutMs: 30_000, idleTimeoutMs: 1_500 });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "watchdog" });
    const text = failureText("en", outcome.error);
    expect(text).toContain("The model kept failing");
    expect(text).toContain(r.state.lastError ?? "?");
  });
});

/**
 * A stand-in for Codex whose command left its process group and tree, as a stop right when Codex
 * starts a command can leave it: a session of its own, its parent gone (then init's child).
 */
function orphaningCodex(dir: string, marker: string): string {
  const bin = path.join(dir, "codex");
  fs.writeFileSync(
    bin,
    `#!/bin/sh
echo '{"type":"thread.started","thread_id":"t-2"}'
echo '{"type":"turn.started"}'
sh -c 'setsid sleep ${marker} </dev/null >/dev/null 2>&1 &'
while true; do sleep 0.05; done
`,
    { mode: 0o755 },
  );
  return bin;
}

const sessionOf = (pid: number): number | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
  } catch {
    return null;
  }
};

const commandOf = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
};

describe("runCodexTurn's end", () => {
  let dir = "";
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  it("a stop leaves no process of the turn, not even one outside Codex's process group and tree; another turn's processes stay", async () => {
    dir = tempDir();
    // A duration of its own: no other run's sleep has it.
    const marker = (40 + Math.random()).toFixed(6);
    // Another turn's process: the same variable, another value.
    const other = spawn("sleep", ["41.25"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CODEXPI_TURN: "another-turn" },
      stdio: "ignore",
    });
    try {
      const abort = new AbortController();
      let codexPid = 0;
      const running = runCodexTurn({
        bin: orphaningCodex(dir, marker),
        invocation: { cwd: dir, fullAccess: false, threadId: null },
        prompt: "hello",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        turnTimeoutMs: 30_000,
        idleTimeoutMs: 30_000,
        stderrFile: path.join(dir, "stderr.log"),
        killGraceMs: 200,
        signal: abort.signal,
        onSpawn: (pid) => {
          codexPid = pid;
        },
      });
      // Positive control: the orphan runs, in a session of its own (out of Codex's group) and out of
      // Codex's tree.
      const orphaned = () =>
        processesWith(marker).filter(
          (p) =>
            sessionOf(p) === p && !descendants(codexPid).includes(p) && commandOf(p) === `sleep ${marker}`,
        );
      await until(() => orphaned().length > 0, 10_000, "the orphan to run");
      abort.abort();
      expect(await running).toMatchObject({ ended: "cancelled" });
      await until(() => processesWith(marker).length === 0, 2_000, "the orphan to be gone");
      expect(other.exitCode).toBeNull();
      expect(fs.existsSync(`/proc/${other.pid}`)).toBe(true);
    } finally {
      other.kill("SIGKILL");
    }
  });
});
