import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensurePrivateDirectory, ensureRegularFile, readRegularFile, replaceFile } from "./agentFiles.js";
import { codexEnvironment } from "./environment.js";
import { jailArgs, workspaceMounts, type JailMount, type JailSpec } from "./jail.js";
import { findProgram } from "./programs.js";

/** Where an agent's Codex state is mounted inside its jail (never under /tmp: Codex refuses it). */
const JAIL_CODEX_HOME = "/codex-home";

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
 * Where codexpi writes the files it shows read-only inside a project's jails (its config.toml and
 * stand-in auth.json): beside the Codex state, in a directory no jail shows, so that no agent can
 * replace them with links.
 */
function jailFilesDir(stateDir: string): string {
  return path.join(path.dirname(stateDir), "jail-files");
}

/**
 * Before the gateway, a full-access project's jail had its own copy of the operator's auth.json
 * here: a credential, removed at the next turn of that project (an upgrade leaves none behind).
 */
function removeOldCredentialCopy(stateDir: string): void {
  fs.rmSync(path.join(path.dirname(stateDir), "auth.json"), { force: true });
}

/** Codex's files in its jail: codexpi's config.toml (the gateway's provider), a stand-in auth.json. */
export interface JailCodexFiles {
  configToml: string;
  authJson: string;
}

/**
 * Creates (or, tampered with, re-creates) the project's Codex state directory and returns the
 * mounts that show it as the jail's CODEX_HOME, with codexpi's config.toml and stand-in auth.json
 * and the operator's AGENTS.md bound read-only into it file by file. The agent writes that
 * directory: each mount point is made a regular file without following whatever it left there.
 * The operator's own config.toml and auth.json never enter a jail: the credential stays with the
 * gateway, outside.
 */
function codexStateMounts(stateDir: string, operatorHome: string, files: JailCodexFiles): JailMount[] {
  ensurePrivateDirectory(stateDir);
  removeOldCredentialCopy(stateDir);
  const own = jailFilesDir(stateDir);
  fs.mkdirSync(own, { recursive: true, mode: 0o700 });
  const mounts: JailMount[] = [{ source: stateDir, target: JAIL_CODEX_HOME, writable: true }];
  const bindFile = (name: string, source: string) => {
    // bwrap needs the mount point to exist in the directory it is bound over.
    ensureRegularFile(stateDir, name);
    mounts.push({ source, target: path.join(JAIL_CODEX_HOME, name), writable: false });
  };
  for (const [name, text] of [
    ["config.toml", files.configToml],
    ["auth.json", files.authJson],
  ] as const) {
    // Rewritten only when it changed: most turns of a project find it as the last one left it.
    if (readRegularFile(own, name)?.toString("utf8") !== text) replaceFile(own, name, text);
    bindFile(name, path.join(own, name));
  }
  const instructions = path.join(operatorHome, "AGENTS.md");
  if (fs.existsSync(instructions)) bindFile("AGENTS.md", instructions);
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
  /** The jail's config.toml and auth.json (no credential in either). */
  files: JailCodexFiles;
  baseEnv: NodeJS.ProcessEnv;
  /** Variables codexpi sets for Codex (the turn's gateway token). */
  extraEnv: Record<string, string>;
  /** `-c` words after the binary (the turn's gateway address, its commands' proxy). */
  overrides: readonly string[];
  /** The jail's network (see agentNetwork): its own loopback only, unless the turn is routed. */
  network: JailSpec["network"];
  /** The turn's socket directory and the jail's loopback ports that lead to its sockets. */
  forwards: JailForwards | null;
  /**
   * Start Codex without any capability (a full-access turn: no Codex sandbox around its commands,
   * which would otherwise hold every capability over the jail's own namespaces and mounts).
   */
  dropCapabilities: boolean;
}

/** `argv` started through capsh with no capability; throws when capsh (libcap2-bin) is missing. */
function withoutCapabilities(argv: string[]): string[] {
  const capsh =
    findProgram("capsh", process.env.PATH ?? "") ??
    (fs.existsSync("/usr/sbin/capsh") ? "/usr/sbin/capsh" : null);
  if (!capsh)
    throw new Error(
      "capsh (Debian libcap2-bin) is required to start a full-access agent without capabilities",
    );
  const [program = "", ...args] = argv;
  return [capsh, "--caps=", `--shell=${program}`, "--", ...args];
}

/** Where the forwarder and the turn's sockets are shown inside the jail. */
const JAIL_RUN = "/run/codexpi";

/** A turn's (or a setup's) socket directory and the jail's loopback ports that lead to its sockets. */
export interface JailForwards {
  /** The forwarder script on the host (system/paths.ts `forwarderScript`). */
  script: string;
  socketDir: string;
  ports: ReadonlyArray<readonly [number, string]>;
}

/**
 * The mounts and argv that start `argv` under the forwarder: the node binary, the script (as .mjs:
 * an ES module outside any package) and the socket directory, all read-only.
 */
export function forwardedCommand(
  forwards: JailForwards | null,
  argv: string[],
): { mounts: JailMount[]; argv: string[] } {
  if (!forwards) return { mounts: [], argv };
  const node = process.execPath;
  const script = path.join(JAIL_RUN, "forwarder.mjs");
  const sockets = path.join(JAIL_RUN, "sockets");
  const spec = forwards.ports.map(([port, name]) => [port, path.join(sockets, name)]);
  return {
    mounts: [
      ...(node.startsWith("/usr/") ? [] : [{ source: node, writable: false }]),
      { source: forwards.script, target: script, writable: false },
      { source: forwards.socketDir, target: sockets, writable: false },
    ],
    argv: [node, script, JSON.stringify(spec), ...argv],
  };
}

/** The host's proxy variables, blanked: inside the jail that proxy is not reachable. */
const NO_HOST_PROXY = Object.fromEntries(
  ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"].map((k) => [
    k,
    undefined,
  ]),
) as Record<string, undefined>;

/** A command line and environment ready for execa (argv only, no shell). */
export interface PreparedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** Wraps a Codex argv (binary first) in the agent's jail, with its allow-listed environment. */
export function jailedCodex(input: CodexJailInput, argv: string[]): PreparedCommand {
  const codexArgv = [argv[0] as string, ...input.overrides, ...argv.slice(1)];
  const run = forwardedCommand(input.forwards, codexArgv);
  // pasta starts its command through capsh already (agentNetwork.ts).
  const argvInJail =
    input.dropCapabilities && typeof input.network !== "object" ? withoutCapabilities(run.argv) : run.argv;
  const mounts: JailMount[] = [
    ...run.mounts,
    { source: input.codexBin, writable: false },
    ...(input.codexSupportDir ? [{ source: input.codexSupportDir, writable: false }] : []),
    ...codexStateMounts(input.stateDir, input.operatorHome, input.files),
    ...workspaceMounts(input.workspace, true, input.allowedAlternates),
  ];
  const systemPath = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
  // No model credential (the gateway holds it) and no proxy of the host's: the jail's only ways
  // out are the ports its namespace forwards. Codex itself must reach its gateway directly.
  const env = codexEnvironment(input.baseEnv, [], {
    ...NO_HOST_PROXY,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    ...input.extraEnv,
    CODEX_HOME: JAIL_CODEX_HOME,
    HOME: JAIL_CODEX_HOME,
    PATH: input.codexSupportDir ? `${input.codexSupportDir}${path.delimiter}${systemPath}` : systemPath,
  });
  return {
    file: input.bwrap,
    args: jailArgs({ mounts, cwd: input.workspace, network: input.network, nestedSandbox: true }, argvInJail),
    env,
  };
}
