import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { codexEnvironment } from "./environment.js";
import { jailArgs, workspaceMounts, type JailMount, type JailSpec } from "./jail.js";

/** Where an agent's Codex state is mounted inside its jail (never under /tmp: Codex refuses it). */
const JAIL_CODEX_HOME = "/codex-home";

/** Files of the operator's CODEX_HOME an agent's Codex needs: settings, credentials, instructions. */
const SHARED_FILES: Array<{ name: string; writable: boolean }> = [
  { name: "config.toml", writable: false },
  // Codex refreshes a ChatGPT login's tokens in place.
  { name: "auth.json", writable: true },
  { name: "AGENTS.md", writable: false },
];

/** The operator's Codex home: CODEX_HOME, else Codex's own default. */
export function operatorCodexHome(configured: string | undefined): string {
  return configured ? path.resolve(configured) : path.join(os.homedir(), ".codex");
}

/**
 * Codex state of one project's agents, under the data directory. Each project has its own
 * (sessions, logs, caches): an agent can read its own threads, never another project's.
 */
export function projectCodexState(dataDir: string, projectId: string): string {
  return path.join(dataDir, "agents", projectId, "codex-home");
}

/**
 * Creates the project's Codex state directory and returns the mounts that show it as the jail's
 * CODEX_HOME, with the operator's settings and credentials bound into it file by file.
 */
function codexStateMounts(stateDir: string, operatorHome: string): JailMount[] {
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const mounts: JailMount[] = [{ source: stateDir, target: JAIL_CODEX_HOME, writable: true }];
  for (const f of SHARED_FILES) {
    const source = path.join(operatorHome, f.name);
    if (!fs.existsSync(source)) continue;
    // bwrap needs the mount point to exist in the directory it is bound over.
    const placeholder = path.join(stateDir, f.name);
    if (!fs.existsSync(placeholder)) fs.writeFileSync(placeholder, "", { mode: 0o600 });
    mounts.push({ source, target: path.join(JAIL_CODEX_HOME, f.name), writable: f.writable });
  }
  return mounts;
}

/** Everything needed to start one jailed Codex turn. */
export interface CodexJailInput {
  bwrap: string;
  codexBin: string;
  /** Directory on PATH the packaged binary expects (its bundled ripgrep), if any. */
  codexSupportDir: string | null;
  workspace: string;
  /** Object stores the workspace may borrow from (a clone's project `.git/objects`). */
  allowedAlternates: readonly string[];
  stateDir: string;
  operatorHome: string;
  baseEnv: NodeJS.ProcessEnv;
  agentEnv: readonly string[];
  /** The jail's network (default: the host's; a full-access turn gets its own, see agentNetwork). */
  network?: JailSpec["network"];
}

/** A command line and environment ready for execa (argv only, no shell). */
export interface PreparedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** Wraps a Codex argv (binary first) in the agent's jail, with its allow-listed environment. */
export function jailedCodex(input: CodexJailInput, codexArgv: string[]): PreparedCommand {
  const mounts: JailMount[] = [
    { source: input.codexBin, writable: false },
    ...(input.codexSupportDir ? [{ source: input.codexSupportDir, writable: false }] : []),
    ...codexStateMounts(input.stateDir, input.operatorHome),
    ...workspaceMounts(input.workspace, true, input.allowedAlternates),
  ];
  const systemPath = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
  const env = codexEnvironment(input.baseEnv, input.agentEnv, {
    CODEX_HOME: JAIL_CODEX_HOME,
    HOME: JAIL_CODEX_HOME,
    PATH: input.codexSupportDir ? `${input.codexSupportDir}${path.delimiter}${systemPath}` : systemPath,
  });
  return {
    file: input.bwrap,
    args: jailArgs(
      { mounts, cwd: input.workspace, network: input.network ?? true, nestedSandbox: true },
      codexArgv,
    ),
    env,
  };
}
