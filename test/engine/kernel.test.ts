import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runUseCase, runUseCaseDispatched, withEffects, type EffectPorts } from "../../src/engine/kernel.js";

/** Ports that record what was performed, in order. */
function recordingPorts(): EffectPorts & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async dispatch() {
      calls.push("dispatch");
      return { started: [], paused: ["load"] };
    },
    async stopConversation(id: string) {
      calls.push(`stop ${id}`);
    },
  };
}

describe("use cases and their effects", () => {
  it("performs a use case's effects once it has returned: its stops first, then its dispatch", async () => {
    const ports = recordingPorts();
    const value = await runUseCase(ports, async () => {
      ports.calls.push("use case");
      return withEffects(42, { dispatch: true, stop: ["c1", "c2"] });
    });
    expect(value).toBe(42);
    expect(ports.calls).toEqual(["use case", "stop c1", "stop c2", "dispatch"]);
  });

  it("answers what the dispatch did, and null when none was asked", async () => {
    const ports = recordingPorts();
    expect(
      (await runUseCaseDispatched(ports, async () => withEffects("a", { dispatch: true }))).dispatched,
    ).toEqual({ started: [], paused: ["load"] });
    expect((await runUseCaseDispatched(ports, async () => withEffects("b", {}))).dispatched).toBeNull();
    expect(ports.calls).toEqual(["dispatch"]);
  });

  it("a use case that throws performs nothing", async () => {
    const ports = recordingPorts();
    await expect(
      runUseCase(ports, async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(ports.calls).toEqual([]);
  });

  it("only the kernel and the composition root dispatch or stop: services return effects instead", () => {
    // The worker dispatches after writing its outcome (that code is being reworked elsewhere), and
    // the CLI's `ask --wait` keeps dispatching while it waits, as a driver, not a use case.
    const allowed = new Set([
      "engine/kernel.ts",
      "engine/engine.ts",
      "engine/conversations/stop.ts",
      "engine/worker/worker.ts",
      "cli/ask.ts",
    ]);
    const root = path.resolve("src");
    const offenders = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && !allowed.has(f.split(path.sep).join("/")))
      .flatMap((f) =>
        [...fs.readFileSync(path.join(root, f), "utf8").matchAll(/\.dispatch\(\)|\bstopConversation\(/g)].map(
          (m) => `${f}: ${m[0]}`,
        ),
      );
    expect(offenders).toEqual([]);
  });
});
