import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Config } from "../config.js";
import { codexSupportPath } from "../engine/agents/codexBinary.js";
import { turnRunner } from "../engine/agents/runnerChoice.js";
import { codexEnvironment } from "../engine/isolation/environment.js";
import { findBwrap } from "../engine/isolation/jail.js";
import { jailedCodex, operatorCodexHome } from "../engine/isolation/codexJail.js";
import type { Check } from "./slackChecks.js";

/** The probe's bounds: a doctor answers within a minute, whatever the model does. */
const PROBE_TURN_MS = 60_000;
const PROBE_IDLE_MS = 30_000;
const PROBE_PROMPT = "This is a connectivity check. Reply with the single word: ok";

/** The model the operator's config.toml names (Codex's own default when it names none). */
function configuredModel(home: string): string {
  try {
    const toml = fs.readFileSync(path.join(home, "config.toml"), "utf8");
    // Top-level keys only: they come before the first [table].
    const top = toml.split(/^\[/m)[0] ?? "";
    const model = /^model\s*=\s*"([^"]+)"/m.exec(top)?.[1];
    const provider = /^model_provider\s*=\s*"([^"]+)"/m.exec(top)?.[1];
    return model ? `${model}${provider ? ` (provider ${provider})` : ""}` : "Codex's default model";
  } catch {
    return "Codex's default model (no config.toml)";
  }
}

/**
 * One real Codex turn, started the way agents start (in their jail when it is on, with the same
 * allow-listed environment and the operator's config and credentials): the only proof that a
 * model answers. Bounded: a model that keeps failing ends the probe with Codex's last error.
 */
export async function modelProbe(config: Config, bin: string): Promise<Check> {
  const home = operatorCodexHome(config.codexHome);
  const model = configuredModel(home);
  const bwrap = config.jail === "bwrap" ? findBwrap() : null;
  if (config.jail === "bwrap" && !bwrap)
    return { name: "model", ok: false, detail: "not probed: bubblewrap is missing (see the jail check)" };
  const support = codexSupportPath(bin);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-doctor-model-"));
  fs.mkdirSync(config.dataDir, { recursive: true });
  const state = fs.mkdtempSync(path.join(config.dataDir, ".doctor-model-"));
  const started = Date.now();
  try {
    // The runner agents use (CODEXPI_RUNNER): the probe proves that one works.
    const r = await turnRunner(config.runner)({
      bin,
      invocation: { cwd: dir, fullAccess: false, threadId: null },
      prompt: PROBE_PROMPT,
      env: codexEnvironment(process.env, config.agentEnv, {
        CODEX_HOME: config.codexHome,
        PATH: support ? `${support}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH,
      }),
      wrap: bwrap
        ? (argv) =>
            jailedCodex(
              {
                bwrap,
                codexBin: bin,
                codexSupportDir: support,
                workspace: dir,
                allowedAlternates: [],
                stateDir: state,
                operatorHome: home,
                baseEnv: process.env,
                agentEnv: config.agentEnv,
              },
              argv,
            )
        : undefined,
      turnTimeoutMs: Math.min(config.turnTimeoutMs, PROBE_TURN_MS),
      idleTimeoutMs: Math.min(config.idleTimeoutMs, PROBE_IDLE_MS),
      stderrFile: path.join(state, "stderr.log"),
      killGraceMs: 1_000,
    });
    const ms = Date.now() - started;
    if (r.ended === "completed")
      return {
        name: "model",
        ok: true,
        detail: `${model} answered in ${(ms / 1000).toFixed(1)} s (${home})`,
      };
    const why =
      r.state.turnFailed ??
      r.state.lastError ??
      (r.ended === "watchdog" ? `no answer within ${Math.round(ms / 1000)} s` : null) ??
      (r.stderrTail.trim().split("\n").pop() || `codex exited (${r.exitCode ?? "signal"})`);
    return {
      name: "model",
      ok: false,
      detail: `${model} did not answer after ${(ms / 1000).toFixed(1)} s: ${why}. Fix: log in (see README, Set-up) or correct ${path.join(home, "config.toml")}`,
    };
  } catch (err) {
    return { name: "model", ok: false, detail: `codex could not run: ${(err as Error).message}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}
