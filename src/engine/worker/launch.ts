import path from "node:path";
import type { Kernel } from "../kernel.js";
import type { Config } from "../../config.js";
import type { Project } from "../schema.js";
import { codexEnvironment } from "../isolation/index.js";
import { findBwrap } from "../isolation/index.js";
import { agentNetwork } from "../isolation/index.js";
import { jailedCodex, operatorCodexHome, projectCodexState } from "../isolation/index.js";
import { purposeOf } from "./sandboxPolicy.js";
import { type AgentPurpose, sandboxFor, type SandboxMode } from "../isolation/index.js";
import { codexSupportPath, resolveCodexBinary } from "../codex/index.js";
import type { TurnOptions } from "../codex/index.js";
import { agentWorkdir } from "../orchestrations/index.js";
import { type FailureKey, failureNote } from "../../i18n/failures.js";
import type { Outcome } from "../conversations/index.js";
import type { ClaimedItem } from "./claim.js";
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
}

const cannotStart = (key: FailureKey): Outcome => ({
  status: "failed",
  content: null,
  error: failureNote(key),
  errorCode: "spawn_failed",
});

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
 * the main checkout or the install), the Codex binary, and the jail.
 */
export async function prepareLaunch(
  engine: Pick<Kernel, "db" | "config" | "logger" | "clock">,
  { conversation, project }: Pick<ClaimedItem, "conversation" | "project">,
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
  const sandbox = sandboxFor(purpose, project.full_access === 1);
  const launch = codexLaunch(engine.config, bin, workdir, project, sandbox);
  if (!launch) return { failed: cannotStart("worker.jail_missing") };
  return { workdir, bin, purpose, sandbox, ...launch };
}

/**
 * How Codex starts for this project: inside its jail (the default), or — only when the operator
 * turned the jail off — directly, with the same allow-listed environment. Null when the jail is
 * required and bubblewrap is missing: the item fails rather than run unjailed.
 */
function codexLaunch(
  config: Config,
  bin: string,
  workspace: string,
  project: Pick<Project, "id" | "path">,
  sandbox: SandboxMode,
): Pick<CodexLaunch, "env" | "wrap"> | null {
  const support = codexSupportPath(bin);
  if (config.jail === "off") {
    const env = codexEnvironment(process.env, config.agentEnv, {
      CODEX_HOME: config.codexHome,
      PATH: support ? `${support}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH,
    });
    return { env, wrap: undefined };
  }
  const bwrap = findBwrap();
  if (!bwrap) return null;
  const operatorHome = operatorCodexHome(config.codexHome);
  const network = agentNetwork(
    { netns: config.netns, extraPorts: config.netnsPorts, operatorHome },
    sandbox === "full_access",
    process.env,
  );
  const input = {
    bwrap,
    network,
    codexBin: bin,
    codexSupportDir: support,
    workspace,
    allowedAlternates: [path.join(project.path, ".git", "objects")],
    stateDir: projectCodexState(config.dataDir, project.id),
    operatorHome,
    sandbox,
    baseEnv: process.env,
    agentEnv: config.agentEnv,
  };
  return { env: {}, wrap: (argv: string[]) => jailedCodex(input, argv) };
}
