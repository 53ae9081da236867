import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCodexTurn } from "../../../src/engine/codex/codexRunner.js";
import { outcomeOf } from "../../../src/engine/worker/worker.js";
import { failureText } from "../../../src/i18n/failures.js";
import { tempDir } from "../../support/engine.js";

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
      idleTimeoutMs: 600,
      stderrFile: path.join(dir, "stderr.log"),
      killGraceMs: 200,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r).toMatchObject({ ended: "watchdog", watchdog: "idle" });
    expect(r.state.lastError).toMatch(/^Reconnecting\.\.\. \d+\/5/);
    const outcome = outcomeOf(r, false, { turnTimeoutMs: 30_000, idleTimeoutMs: 600 });
    expect(outcome).toMatchObject({ status: "failed", errorCode: "watchdog" });
    const text = failureText("en", outcome.error);
    expect(text).toContain("The model kept failing");
    expect(text).toContain(r.state.lastError ?? "?");
  });
});
