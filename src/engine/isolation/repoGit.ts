import fs from "node:fs";
import path from "node:path";
import type { Writable } from "node:stream";
import { spawn } from "node:child_process";
import { capText } from "../text/index.js";
import { findBwrap, jailArgs, type JailMount } from "./jail.js";

// The one module that runs git on a repository an agent could have written: a project's checkout
// (a full-access agent, or an overlapping project's agent, writes its `.git`), an orchestration or
// self-repair clone (acceptance tests run there without Codex's sandbox), the self project. Git
// executes what a repository's configuration and hooks name (hooks, fsmonitor, filters, diff and
// merge drivers, alternate-refs commands, credential helpers, ssh and gpg programs, pagers,
// editors…), so codexpi never runs git there as itself:
//   1. every command runs in a jail like the acceptance tests' one: no network, an environment
//      with no secret (nothing of codexpi's own environment passes), only the directories the
//      command needs (read-only where it only reads), a private /tmp and /proc;
//   2. inside it, the configuration that runs commands is neutralised: hooks and fsmonitor off,
//      every command-running key the repository's configuration sets overridden on the command
//      line, transports other than local files refused, global and system configuration ignored.
// Nothing else in src/ may start git on such a path (test/lint/repoGit.test.ts scans for it).

/** How git runs: jailed (the default), or directly when the operator turned the jail off (unsafe). */
export type GitJailMode = "bwrap" | "off";

/** What one git command may see: its working directory and the other directories it needs. */
export interface RepoGitAccess {
  jail: GitJailMode;
  /** Where git runs; shown read-write when listed in `write`, else read-only. */
  cwd: string;
  /** Directories git writes (the repository a fetch, merge or commit changes). */
  write?: readonly string[];
  /** Directories git only reads (the clone a fetch reads, object stores a clone borrows). */
  read?: readonly string[];
  /** Wall-clock limit (default five minutes). */
  timeoutMs?: number;
  /**
   * `cwd` is a directory codexpi just made (empty, or the clone git made there a moment ago) where
   * no other program ran since: git's own configuration only, nothing to disarm, so the reading of
   * its configuration keys (one more jailed process) is skipped. Lane start-up counts processes.
   */
  fresh?: boolean;
  /**
   * Set only for a command that reaches a remote (a push): the network and what it needs. Such a
   * command runs only where the repository's configuration holds nothing but what `git init
   * --bare` writes (a repository codexpi made for it): anything else is refused, `fresh` or not.
   */
  remote?: GitRemoteAccess;
}

/**
 * What a command that talks to a remote may use besides the usual jail: the host's network, the
 * transports named, an askpass program outside every repository, a secret it reads. Everything
 * else stays as for any engine git command (no hook, no command from the repository's config).
 */
export interface GitRemoteAccess {
  /** Transports allowed besides local files. */
  protocols: ReadonlyArray<"https" | "http" | "ssh">;
  /** Directories (or files) shown read-only: the askpass program's, the operator's ~/.ssh. */
  read?: readonly string[];
  /** The askpass program git asks for a user name and a password, and the variables it reads. */
  askPass?: { program: string; env: Readonly<Record<string, string>> };
  /**
   * A secret the askpass program reads from the file `SECRET_PATH` names. Jailed: a read-only
   * file that exists only inside the jail (bubblewrap reads it from a pipe). Jail off: a
   * 0600 file in `spillDir` (private, outside every repository), removed when git ends.
   */
  secret?: { value: string; spillDir: string };
}

/** The variable naming the file that holds a remote command's secret (see GitRemoteAccess). */
const SECRET_PATH = "CODEXPI_ASKPASS_SECRET";
/** Where the secret lies inside the jail (its private /tmp). */
const JAILED_SECRET = "/tmp/codexpi-askpass/secret";
/** The file descriptor bubblewrap reads the secret from. */
const SECRET_FD = 3;

/** Settings every engine git command runs with: an identity, no signing, no hook, no command. */
const FIXED: readonly string[] = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.attributesFile=/dev/null",
  // Run through a shell with the repository's path: `true` lists no alternate refs and runs nothing.
  "core.alternateRefsCommand=true",
  "core.askPass=",
  "core.sshCommand=false",
  "core.pager=cat",
  "core.editor=true",
  "sequence.editor=true",
  "credential.helper=",
  "gpg.program=false",
  "gpg.ssh.program=false",
  "gpg.x509.program=false",
  "gpg.ssh.defaultKeyCommand=false",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "log.showSignature=false",
  "merge.verifySignatures=false",
  "diff.external=",
  // Only local paths: no ext::, ssh or http transport, whatever a remote or URL rewrite says.
  "protocol.allow=never",
  "protocol.file.allow=always",
  "submodule.recurse=false",
  "fetch.recurseSubmodules=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "user.name=codexpi",
  "user.email=codexpi@localhost",
];

/**
 * Keys of a repository's configuration that name a command, and the value that disarms each:
 * an empty filter is no filter, a merge driver `false` makes the merge conflict (never a silent
 * "ours"), an empty helper list or textconv runs nothing.
 */
const COMMAND_KEYS: ReadonlyArray<[RegExp, string]> = [
  [/^filter\..+\.(clean|smudge|process)$/, ""],
  [/^filter\..+\.required$/, "false"],
  [/^diff\..+\.(command|textconv)$/, ""],
  [/^merge\..+\.driver$/, "false"],
  [/^credential\..+\.helper$/, ""],
  [/^remote\..+\.(uploadpack|receivepack|proxy|vcs)$/, ""],
  [/^(difftool|mergetool)\..+\.(cmd|path)$/, "false"],
  [/^pager\..+$/, "false"],
  [/^submodule\..+\.update$/, "none"],
  [/^core\.(gitproxy|worktree)$/, ""],
  [/^uploadpack\.packobjectshook$/, ""],
  [/^http\..*(proxy|cookiefile)$/, ""],
  // Certificates are always checked (a per-URL key outranks the plain `http.sslVerify`).
  [/^http\..+\.sslverify$/, "true"],
];

/** The settings a command reaching a remote runs with, after FIXED (the last value wins). */
function remoteOverrides(remote: GitRemoteAccess): string[] {
  return [
    ...remote.protocols.map((p) => `protocol.${p}.allow=always`),
    "http.sslVerify=true",
    "push.recurseSubmodules=no",
    "push.gpgSign=false",
    ...(remote.askPass ? [`core.askPass=${remote.askPass.program}`] : []),
    // The operator's own ssh (its ~/.ssh shown read-only); never a prompt, never a program the
    // repository names.
    ...(remote.protocols.includes("ssh") ? ["core.sshCommand=ssh -o BatchMode=yes"] : []),
  ];
}

/**
 * The only keys a repository's own configuration may set for a command that reaches a remote:
 * what `git init --bare` writes. Network keys (`http.*` — `curloptResolve`, `sslCAInfo`, proxies —,
 * `url.*.insteadOf`, `remote.*`, `credential.*`, `include*`) would choose where git connects and
 * whom it trusts with the token; a remote command runs from a repository codexpi made for it
 * (forge/pushRepository.ts), so anything else there means something wrote it: refused.
 */
const REMOTE_COMMAND_KEYS =
  /^(core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks)|extensions\.(objectformat|refstorage))$/;

/** Keys among `keys` a command that reaches a remote does not run with (see REMOTE_COMMAND_KEYS). */
export function foreignRemoteKeys(keys: readonly string[]): string[] {
  return [...new Set(keys.map((k) => k.toLowerCase()))].filter((k) => !REMOTE_COMMAND_KEYS.test(k));
}

/** The `-c` overrides that disarm every command-running key among `keys` (lower-case names). */
export function neutralisingOverrides(keys: readonly string[]): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    const k = key.toLowerCase();
    // core.worktree cannot be emptied: git is told the work tree explicitly instead (see argv).
    if (k === "core.worktree") continue;
    for (const [pattern, value] of COMMAND_KEYS) if (pattern.test(k)) out.add(`${key}=${value}`);
  }
  return [...out];
}

const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * The environment of an engine git command: nothing of codexpi's own (no token, no database
 * credential, no GIT_* redirection), no global or system configuration, no prompt of any kind.
 */
function gitEnvironment(): Record<string, string> {
  return {
    PATH: SYSTEM_PATH,
    HOME: "/tmp",
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_EDITOR: "true",
    GIT_SEQUENCE_EDITOR: "true",
    GIT_PAGER: "cat",
    GIT_OPTIONAL_LOCKS: "0",
  };
}

/** A directory's real path (links resolved): what the jail binds and git is told. */
function real(dir: string): string {
  return fs.realpathSync(dir);
}

/** Whether `inner` is `outer` or lies below it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The jail's mounts: read-only directories first, then writable ones (a writable repository keeps
 * its objects writable even when a clone lists them as alternates); a read-only directory inside a
 * writable one is dropped, so it cannot make part of a written repository read-only.
 */
function gitMounts(cwd: string, write: readonly string[], read: readonly string[]): JailMount[] {
  const writable = [...new Set(write.map(real))];
  const readable = [...new Set([cwd, ...read].filter((d) => fs.existsSync(d)).map(real))].filter(
    (d) => !writable.some((w) => within(d, w)),
  );
  const byDepth = (a: string, b: string) => a.length - b.length;
  return [
    ...readable.sort(byDepth).map((source) => ({ source, writable: false })),
    ...writable.sort(byDepth).map((source) => ({ source, writable: true })),
  ];
}

/** The command that runs `argv` (git first) under `access`: jailed, or directly when the jail is off. */
function prepared(access: RepoGitAccess, argv: string[]): { file: string; args: string[]; cwd: string } {
  const cwd = real(access.cwd);
  if (access.jail === "off") return { file: argv[0]!, args: argv.slice(1), cwd };
  const bwrap = findBwrap();
  if (!bwrap)
    throw new Error(
      "bubblewrap (bwrap) is not installed: codexpi runs git on agent-written repositories only inside its jail",
    );
  const remote = access.remote;
  const mounts = gitMounts(cwd, access.write ?? [], [...(access.read ?? []), ...(remote?.read ?? [])]);
  const data = remote?.secret ? [{ fd: SECRET_FD, target: JAILED_SECRET }] : [];
  const spec = { mounts, cwd, network: remote !== undefined, nestedSandbox: false, data };
  return { file: bwrap, args: jailArgs(spec, argv), cwd };
}

/** Where the secret goes for the jail-off mode: a private file, and how to remove it. */
function spilledSecret(secret: { value: string; spillDir: string }): { file: string; remove: () => void } {
  fs.mkdirSync(secret.spillDir, { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(secret.spillDir, "push-"));
  const file = path.join(dir, "secret");
  fs.writeFileSync(file, secret.value, { mode: 0o600, flag: "wx" });
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** How one git process ended: its exit status and what it printed. */
interface GitRun {
  ok: boolean;
  out: string;
  err: string;
}

/**
 * Starts `file` (bubblewrap, or git with the jail off) with node's own spawn rather than execa:
 * engine git commands are the most frequent processes codexpi starts (two per command, a few per
 * prompt and many per orchestration), and execa's streams and hooks doubled the CPU a start costs
 * in the starting process (6.8 against 3.1 ms measured per call). A command that outlives its
 * limit is killed (SIGKILL: bubblewrap takes the jail's processes with it).
 */
function runGit(
  file: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number; secret?: string },
): Promise<GitRun> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let failure = "";
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      // bubblewrap reads the secret from descriptor 3 at start-up (then closes it): git never sees it.
      stdio: ["ignore", "pipe", "pipe", opts.secret === undefined ? "ignore" : "pipe"],
    });
    const timer = setTimeout(() => {
      failure = `git timed out after ${opts.timeoutMs} ms`;
      child.kill("SIGKILL");
    }, opts.timeoutMs);
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => {
      failure ||= e.message; // not started (ENOENT…): "close" follows
    });
    if (opts.secret !== undefined) {
      const pipe = child.stdio[SECRET_FD] as Writable | null;
      // A jail that fails before reading it closes the pipe: git's own failure is the error to report.
      pipe?.on("error", () => {});
      pipe?.end(opts.secret);
    }
    child.on("close", (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      resolve({ ok: code === 0 && !failure, out: stdout, err: stderr || stdout || failure });
    });
  });
}

async function exec(access: RepoGitAccess, argv: string[]): Promise<GitRun> {
  const { file, args, cwd } = prepared(access, argv);
  const remote = access.remote;
  const spill = remote?.secret && access.jail === "off" ? spilledSecret(remote.secret) : null;
  const env: Record<string, string> = {
    ...gitEnvironment(),
    ...(remote?.askPass ? { ...remote.askPass.env, GIT_ASKPASS: remote.askPass.program } : {}),
    ...(remote?.secret ? { [SECRET_PATH]: spill?.file ?? JAILED_SECRET } : {}),
  };
  const piped = remote?.secret !== undefined && spill === null;
  try {
    return await runGit(file, args, {
      cwd,
      env,
      timeoutMs: access.timeoutMs ?? 300_000,
      ...(piped ? { secret: remote?.secret?.value ?? "" } : {}),
    });
  } finally {
    spill?.remove();
  }
}

/**
 * The configuration keys set for `cwd` (its repository's, included files' too), lower-case; null
 * when git could not read them.
 */
async function configuredKeys(access: RepoGitAccess): Promise<string[] | null> {
  // Reading configuration runs nothing; the same jail shows the same files the command will read.
  const local = { ...access, remote: undefined };
  const r = await exec(local, ["git", "--no-pager", "config", "--list", "--name-only", "-z"]);
  return r.ok ? r.out.split("\0").filter(Boolean) : null;
}

/** The work tree to name explicitly: `cwd` when it holds a `.git` directory (a clone or checkout). */
function workTreeArgs(cwd: string): string[] {
  const dotGit = fs.lstatSync(path.join(cwd, ".git"), { throwIfNoEntry: false });
  return dotGit?.isDirectory() ? [`--git-dir=${path.join(cwd, ".git")}`, `--work-tree=${cwd}`] : [];
}

/**
 * Runs `git <args>` (an argv, never a shell line) on agent-written content, jailed and disarmed;
 * returns its stdout, trimmed. Throws, with the end of git's message, when git fails.
 */
export async function repoGit(access: RepoGitAccess, args: string[]): Promise<string> {
  const cwd = real(access.cwd);
  // A command with the network always reads the configuration first, `fresh` or not: it is the
  // second layer under "push from a repository codexpi owns", and a push is rare.
  const read = access.fresh && !access.remote ? [] : await configuredKeys(access);
  const keys = read ?? [];
  if (access.remote) {
    const foreign = read === null ? ["(unreadable configuration)"] : foreignRemoteKeys(read);
    if (foreign.length)
      throw new Error(
        `git ${args[0] ?? ""} reaches a remote and runs only with codexpi's configuration, but the repository's sets ${capText(foreign.join(", "), 500)}`,
      );
  }
  const overrides = [
    ...FIXED,
    ...neutralisingOverrides(keys),
    ...(access.remote ? remoteOverrides(access.remote) : []),
  ];
  const safe = [cwd, ...(access.write ?? []), ...(access.read ?? [])]
    .filter((d) => fs.existsSync(d))
    .map((d) => `safe.directory=${real(d)}`);
  const argv = [
    "git",
    "--no-pager",
    ...workTreeArgs(cwd),
    ...[...overrides, ...safe].flatMap((kv) => ["-c", kv]),
    ...args,
  ];
  const r = await exec(access, argv);
  if (!r.ok) throw new Error(`git ${args[0] ?? ""} failed: ${capText(r.err.trim(), 2000)}`);
  return r.out.trim();
}

/** `repoGit` that answers null instead of throwing (a probe whose failure is an answer). */
export async function repoGitOrNull(access: RepoGitAccess, args: string[]): Promise<string | null> {
  return repoGit(access, args).catch(() => null);
}
