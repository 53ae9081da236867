import path from "node:path";
import type { Logger } from "pino";
import type { Kernel } from "../kernel.js";
import type { Config } from "../../config.js";
import { codexEnvironment } from "../isolation/index.js";
import { findBwrap } from "../isolation/index.js";
import { agentNetwork, type CodexJailInput } from "../isolation/index.js";
import { jailedCodex, operatorCodexHome, projectCodexState } from "../isolation/index.js";
import { fullAccessGranted, purposeOf } from "./sandboxPolicy.js";
import { type AgentPurpose, sandboxFor, type SandboxMode } from "../isolation/index.js";
import { codexSupportPath, resolveCodexBinary } from "../codex/index.js";
import type { TurnOptions } from "../codex/index.js";
import { agentWorkdir } from "../orchestrations/index.js";
import { type FailureKey, failureNote } from "../../i18n/failures.js";
import type { Outcome } from "../conversations/index.js";
import type { ClaimedItem } from "./claim.js";
import { startTurnServices, type TurnServices } from "./turnServices.js";
import { projectNetwork } from "../network/index.js";
import { forwarderScript } from "../system/index.js";
import { SetupFailed } from "../setup/index.js";

/** How Codex starts for this item's turn: where, which binary, which sandbox, inside which jail. */
export interface CodexLaunch {
  workdir: string;
  bin: string;
  purpose: AgentPurpose;
  sandbox: SandboxMode;
  env: TurnOptions["env"];
  wrap: TurnOptions["wrap"];
  /** The files shared with the prompt, once in the workspace: the prompt's note and the images. */
  files?: { note: string | null; images: string[] };
  /** The jailed turn's gateway and proxy (null when the operator turned the jail off). */
  services: TurnServices | null;
}

const cannotStart = (key: FailureKey): Outcome => ({
  status: "failed",
  content: null,
  error: failureNote(key),
  errorCode: "spawn_failed",
});

/** Where turns' socket directories live: under the data directory, never shown whole to a jail. */
const turnRunDir = (dataDir: string): string => path.join(dataDir, "run");
/** A new lane's setup failed: the turn fails with its cause and its (already redacted) log tail. */
const setupFailed = (err: SetupFailed): Outcome => ({
  status: "failed",
  content: null,
  // The end of the tail: a thread shows ~1,500 characters of a failure, and the end says why.
  error: failureNote(`setup.failed_${err.why}`, {
    code: err.exitCode ?? "?",
    tail: lastChars(err.tail, 1200),
  }),
  errorCode: "setup_failed",
});

const lastChars = (text: string, n: number) => (text.length > n ? `…${text.slice(-n)}` : text);

/**
 * Everything Codex needs before it starts, or the failed outcome that says what is missing: the
 * agent's working directory (orchestration, self-project and lane agents work in their clone, never
 * the main checkout or the install), the Codex binary, the jail, and the turn's services outside
 * it (model gateway, egress proxy), which the caller ends with the turn (`launch.services.end()`).
 */
export async function prepareLaunch(
  engine: Pick<Kernel, "db" | "config" | "logger" | "clock">,
  { conversation, project }: Pick<ClaimedItem, "conversation" | "project">,
  log: Logger = engine.logger,
): Promise<CodexLaunch | { failed: Outcome }> {
  let workdir: string | null;
  try {
    workdir = await agentWorkdir(engine, conversation.id, project);
  } catch (err) {
    if (err instanceof SetupFailed) return { failed: setupFailed(err) };
    throw err;
  }
  if (!workdir) return { failed: cannotStart("orch.worktree_missing") };
  const bin = resolveCodexBinary(engine.config.codexBin);
  if (!bin) return { failed: cannotStart("worker.codex_missing") };
  const purpose = await purposeOf(engine.db, conversation.id, project);
  const sandbox = sandboxFor(purpose, await fullAccessGranted(engine.db, conversation.id, project));
  if (engine.config.jail === "off")
    return { workdir, bin, purpose, sandbox, services: null, ...unjailedLaunch(engine.config, bin) };
  const bwrap = findBwrap();
  if (!bwrap) return { failed: cannotStart("worker.jail_missing") };
  let services: TurnServices;
  try {
    services = await startTurnServices(log, {
      operatorHome: operatorCodexHome(engine.config.codexHome),
      env: process.env,
      runDir: turnRunDir(engine.config.dataDir),
      network: {
        policy: projectNetwork(project),
        sandbox,
        extraPorts: engine.config.netnsPorts,
      },
    });
  } catch (err) {
    log.error({ err }, "the turn's model gateway could not start");
    return {
      failed: {
        status: "failed",
        content: null,
        error: failureNote("worker.model_credential", { detail: (err as Error).message }),
        errorCode: "spawn_failed",
      },
    };
  }
  const input = jailInput(engine.config, bin, workdir, services, {
    bwrap,
    fullAccess: sandbox === "full_access",
    stateDir: projectCodexState(engine.config.dataDir, project.id),
    allowedAlternates: [path.join(project.path, ".git", "objects")],
  });
  return {
    workdir,
    bin,
    purpose,
    sandbox,
    services,
    env: {},
    wrap: (argv: string[]) => jailedCodex(input, argv),
  };
}

/** The jail of a turn whose services are started. */
function jailInput(
  config: Config,
  bin: string,
  workspace: string,
  services: TurnServices,
  where: { bwrap: string; stateDir: string; allowedAlternates: string[]; fullAccess: boolean },
): CodexJailInput {
  return {
    bwrap: where.bwrap,
    network: agentNetwork({ netns: config.netns }, services.outbound),
    codexBin: bin,
    codexSupportDir: codexSupportPath(bin),
    workspace,
    allowedAlternates: where.allowedAlternates,
    stateDir: where.stateDir,
    operatorHome: operatorCodexHome(config.codexHome),
    files: services.files,
    baseEnv: process.env,
    extraEnv: services.env,
    overrides: services.overrides,
    forwards: { script: forwarderScript(), socketDir: services.socketDir, ports: services.forwards },
    dropCapabilities: where.fullAccess,
  };
}

/**
 * Codex started directly, only when the operator turned the jail off (CODEXPI_JAIL=off, unsafe):
 * the operator's own CODEX_HOME and credential, the same allow-listed environment.
 */
function unjailedLaunch(config: Config, bin: string): Pick<CodexLaunch, "env" | "wrap"> {
  const support = codexSupportPath(bin);
  const env = codexEnvironment(process.env, config.agentEnv, {
    CODEX_HOME: config.codexHome,
    PATH: support ? `${support}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH,
  });
  return { env, wrap: undefined };
}

/** A jailed Codex for `doctor`'s probes, reaching its model through a gateway as agents do. */
export interface ProbeJail {
  wrap(argv: string[]): ReturnType<typeof jailedCodex>;
  modelLink: TurnServices["modelLink"];
  end(): Promise<void>;
}

/**
 * The jail and services of a probe (`doctor`'s sandbox and model checks): a restricted turn with
 * no network but its gateway. Throws when the gateway cannot start (no credential): the probe
 * says so, which is itself the check that the gateway starts.
 */
export async function probeJailedCodex(
  config: Config,
  input: { bwrap: string; bin: string; workspace: string; stateDir: string; log: Logger },
): Promise<ProbeJail> {
  const services = await startTurnServices(input.log, {
    operatorHome: operatorCodexHome(config.codexHome),
    env: process.env,
    runDir: turnRunDir(config.dataDir),
    network: { policy: { mode: "off", hosts: [] }, sandbox: "restricted", extraPorts: [] },
  });
  const jail = jailInput(config, input.bin, input.workspace, services, {
    bwrap: input.bwrap,
    fullAccess: false,
    stateDir: input.stateDir,
    allowedAlternates: [],
  });
  return {
    wrap: (argv) => jailedCodex(jail, argv),
    modelLink: services.modelLink,
    end: () => services.end(),
  };
}

/**
 * A standby worker's warm-up, before its assignment: starts and ends a turn's services once, so
 * that reading Codex's settings, the gateway's server and its upstream client are compiled and
 * ready when a turn comes (they would otherwise be paid between the claim and Codex's start).
 * Best effort: a missing credential is the turn's to report.
 */
export async function warmTurnServices(config: Config, log: Logger): Promise<void> {
  try {
    const services = await startTurnServices(log, {
      operatorHome: operatorCodexHome(config.codexHome),
      env: process.env,
      runDir: turnRunDir(config.dataDir),
      network: { policy: { mode: "off", hosts: [] }, sandbox: "restricted", extraPorts: [] },
    });
    await services.end();
  } catch {
    // the turn itself will say what is missing
  }
}
