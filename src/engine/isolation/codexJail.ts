import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxMode } from "./sandboxMode.js";
import { ensurePrivateDirectory, ensureRegularFile, replaceFile } from "./agentFiles.js";
import { codexEnvironment } from "./environment.js";
import { jailArgs, workspaceMounts, type JailMount, type JailSpec } from "./jail.js";

/** Where an agent's Codex state is mounted inside its jail (never under /tmp: Codex refuses it). */
const JAIL_CODEX_HOME = "/codex-home";
/** Codex's credentials file (an API key, or a ChatGPT login whose tokens Codex refreshes in place). */
const AUTH_FILE = "auth.json";

/** Files of the operator's CODEX_HOME an agent's Codex needs: settings, credentials, instructions. */
const SHARED_FILES = ["config.toml", AUTH_FILE, "AGENTS.md"] as const;

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
 * A full-access turn's own copy of the operator's auth.json: beside the project's Codex state (in
 * a directory no jail shows), so that no agent can replace it with a link and renaming a fresh
 * copy over it never disturbs a running jail's mount of the state directory.
 */
export function projectCredentialCopy(stateDir: string): string {
  return path.join(path.dirname(stateDir), AUTH_FILE);
}

/**
 * Where a jail's auth.json comes from. Restricted turns share the operator's file read-write:
 * Codex's sandbox keeps their commands off it, and Codex itself refreshes a ChatGPT login there.
 * A full-access turn's commands run unsandboxed, so it gets the project's own copy, refreshed
 * from the operator's file now (outside the jail, atomically) and never written back: nothing it
 * writes reaches another project's credential.
 */
function credentialSource(operatorFile: string, stateDir: string, sandbox: SandboxMode): string {
  if (sandbox === "restricted") return operatorFile;
  const copy = projectCredentialCopy(stateDir);
  replaceFile(path.dirname(copy), path.basename(copy), fs.readFileSync(operatorFile));
  return copy;
}

/**
 * Creates (or, tampered with, re-creates) the project's Codex state directory and returns the
 * mounts that show it as the jail's CODEX_HOME, with the operator's settings and credentials bound
 * into it file by file. The agent writes that directory: each mount point is made a regular file
 * without following whatever the agent may have left at its name.
 */
function codexStateMounts(stateDir: string, operatorHome: string, sandbox: SandboxMode): JailMount[] {
  ensurePrivateDirectory(stateDir);
  const mounts: JailMount[] = [{ source: stateDir, target: JAIL_CODEX_HOME, writable: true }];
  for (const name of SHARED_FILES) {
    const operatorFile = path.join(operatorHome, name);
    if (!fs.existsSync(operatorFile)) continue;
    // bwrap needs the mount point to exist in the directory it is bound over.
    ensureRegularFile(stateDir, name);
    const target = path.join(JAIL_CODEX_HOME, name);
    if (name === AUTH_FILE)
      mounts.push({ source: credentialSource(operatorFile, stateDir, sandbox), target, writable: true });
    else mounts.push({ source: operatorFile, target, writable: false });
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
  /** How Codex's inner sandbox runs this turn: full access gets its own copy of the credentials. */
  sandbox: SandboxMode;
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
    ...codexStateMounts(input.stateDir, input.operatorHome, input.sandbox),
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
