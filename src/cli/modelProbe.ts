import {
  codexEnvironment,
  codexSupportPath,
  findBwrap,
  operatorCodexHome,
  type ProbeJail,
  probeJailedCodex,
  recordModelProbe,
  turnRunner,
} from "../engine/api/runtime.js";
import fs from "node:fs";
import { pino } from "pino";
import os from "node:os";
import path from "node:path";
import type { Config } from "../config.js";
import { checkName, type Check } from "./slackChecks.js";
import { t, type Locale } from "../i18n/index.js";
import { modelAccessProblem } from "./modelAccess.js";

/** The probe's bounds: a doctor answers within a minute, whatever the model does. */
const PROBE_TURN_MS = 60_000;
const PROBE_IDLE_MS = 30_000;
// Codex retries an endpoint it cannot reach forever: a few seconds of nothing else say enough.
const PROBE_CONNECT_MS = 6_000;
const PROBE_PROMPT = "This is a connectivity check. Reply with the single word: ok";

/** The model the operator's config.toml names (Codex's own default when it names none). */
function configuredModel(locale: Locale, home: string): string {
  try {
    const toml = fs.readFileSync(path.join(home, "config.toml"), "utf8");
    // Top-level keys only: they come before the first [table].
    const top = toml.split(/^\[/m)[0] ?? "";
    const model = /^model\s*=\s*"([^"]+)"/m.exec(top)?.[1];
    const provider = /^model_provider\s*=\s*"([^"]+)"/m.exec(top)?.[1];
    if (!model) return t(locale, "cli.doctor.model_default");
    return provider ? t(locale, "cli.doctor.model_with_provider", { model, provider }) : model;
  } catch {
    return t(locale, "cli.doctor.model_default_no_config");
  }
}

/** Why Codex cannot authenticate to its model, said before any turn (with its fix); null when it may. */
function accessRefusal(locale: Locale, model: string, home: string, bin: string): string | null {
  const access = modelAccessProblem(home, process.env);
  // The pinned binary by its absolute path: no `codex` is on the PATH (npm ci installs it locally).
  if (access?.kind === "not_logged_in")
    return t(locale, "cli.doctor.model_not_logged_in", { model, home, codex: bin });
  if (access?.kind === "key_missing")
    return t(locale, "cli.doctor.model_key_missing", {
      model,
      variable: access.variable,
      config: path.join(home, "config.toml"),
    });
  return null;
}

/**
 * One real Codex turn, started the way agents start (in their jail when it is on, with the same
 * allow-listed environment and the operator's config and credentials): the only proof that a
 * model answers. Bounded: a model that keeps failing ends the probe with Codex's last error.
 */
export async function modelProbe(config: Config, bin: string): Promise<Check> {
  const { locale } = config;
  const name = checkName(locale, "model");
  const home = operatorCodexHome(config.codexHome);
  const model = configuredModel(locale, home);
  const configFile = path.join(home, "config.toml");
  const refused = accessRefusal(locale, model, home, bin);
  if (refused) return { name, ok: false, detail: refused };
  const bwrap = config.jail === "bwrap" ? findBwrap() : null;
  if (config.jail === "bwrap" && !bwrap)
    return { name, ok: false, detail: t(locale, "cli.doctor.model_no_bwrap") };
  const support = codexSupportPath(bin);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codexpi-doctor-model-"));
  fs.mkdirSync(config.dataDir, { recursive: true });
  const state = fs.mkdtempSync(path.join(config.dataDir, ".doctor-model-"));
  const started = Date.now();
  let probe: ProbeJail | null = null;
  try {
    // Through a gateway, as agents reach their model: a credential it cannot read fails here.
    if (bwrap)
      probe = await probeJailedCodex(config, {
        bwrap,
        bin,
        workspace: dir,
        stateDir: state,
        log: pino({ level: "silent" }),
      });
    // The runner agents use (CODEXPI_RUNNER): the probe proves that one works.
    const r = await turnRunner(config.runner)({
      bin,
      invocation: { cwd: dir, fullAccess: false, threadId: null },
      prompt: PROBE_PROMPT,
      env: codexEnvironment(process.env, config.agentEnv, {
        CODEX_HOME: config.codexHome,
        PATH: support ? `${support}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH,
      }),
      wrap: probe ? (argv) => (probe as ProbeJail).wrap(argv) : undefined,
      modelLink: probe?.modelLink,
      turnTimeoutMs: Math.min(config.turnTimeoutMs, PROBE_TURN_MS),
      idleTimeoutMs: Math.min(config.idleTimeoutMs, PROBE_IDLE_MS),
      connectTimeoutMs: Math.min(config.connectTimeoutMs, PROBE_CONNECT_MS),
      stderrFile: path.join(state, "stderr.log"),
      killGraceMs: 1_000,
    });
    const ms = Date.now() - started;
    const seconds = (ms / 1000).toFixed(1);
    // What /healthz reports until a turn proves more (the probe reached Codex: its verdict counts).
    recordModelProbe(config.dataDir, { ok: r.ended === "completed", at: Date.now() });
    if (r.ended === "completed")
      return { name, ok: true, detail: t(locale, "cli.doctor.model_ok", { model, seconds, home }) };
    const unreachable = unreachableDetail(locale, r, { model, seconds, config: configFile });
    if (unreachable) return { name, ok: false, detail: unreachable };
    const why = failureOf(locale, r, ms);
    return {
      name,
      ok: false,
      detail: t(locale, "cli.doctor.model_failed", {
        model,
        seconds,
        why,
        config: path.join(home, "config.toml"),
      }),
    };
  } catch (err) {
    return {
      name,
      ok: false,
      detail: t(locale, "cli.doctor.model_cannot_run", { error: (err as Error).message }),
    };
  } finally {
    await probe?.end();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}

/** Why a probe's turn did not complete: Codex's own error when it gave one. */
/** Codex only ever retried: its endpoint is not there (whichever limit came first). */
function unreachableDetail(
  locale: Locale,
  r: Awaited<ReturnType<ReturnType<typeof turnRunner>>>,
  vars: { model: string; seconds: string; config: string },
): string | null {
  // The gateway names a model it cannot reach (a 502 Codex reports as its turn's failure).
  const gateway = /codexpi gateway: the model at .*? could not be reached \([^)]*\)/.exec(
    r.state.turnFailed ?? r.state.lastError ?? "",
  );
  if (gateway) return t(locale, "cli.doctor.model_unreachable", { ...vars, why: gateway[0] });
  if (r.ended !== "watchdog" || (r.watchdog !== "connect" && r.state.reconnects === 0)) return null;
  const why = r.state.progress?.detail ?? r.state.lastError ?? "?";
  return t(locale, "cli.doctor.model_unreachable", { ...vars, why });
}

function failureOf(
  locale: Locale,
  r: Awaited<ReturnType<ReturnType<typeof turnRunner>>>,
  ms: number,
): string {
  return (
    r.state.turnFailed ??
    r.state.lastError ??
    (r.ended === "watchdog"
      ? t(locale, "cli.doctor.model_silent", { seconds: Math.round(ms / 1000) })
      : null) ??
    (r.stderrTail.trim().split("\n").pop() ||
      t(locale, "cli.doctor.model_exited", { code: r.exitCode ?? "signal" }))
  );
}
