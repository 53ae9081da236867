import fs from "node:fs";
import path from "node:path";
import { readRegularFile } from "./agentFiles.js";
import { pastaArgs, type PastaNetwork } from "./agentNetwork.js";
import { findProgram } from "./programs.js";

/**
 * The outer isolation layer: a bubblewrap jail around every Codex process and every acceptance
 * test. It shows the system read-only (/usr and a short list of /etc entries: no /etc/shadow,
 * no /home, /root, /srv, /opt, /var or /run), a private /tmp, /proc and /dev, and exactly the
 * directories the caller binds — never codexpi's data directory, another project, or the bot.
 * Codex's own sandbox (workspace-write) runs nested inside it; full access lifts only that one.
 */

/** One extra directory or file shown inside the jail. */
export interface JailMount {
  /** Path on the host. */
  source: string;
  /** Path inside the jail (default: the same as on the host). */
  target?: string;
  writable: boolean;
}

/** What a jailed process may see and do. */
export interface JailSpec {
  /** Mounted in this order, after the system and the private /tmp (so /tmp paths work). */
  mounts: JailMount[];
  /** Working directory inside the jail. */
  cwd: string;
  /**
   * `true`: the host's network (Codex must reach its model); `false`: only a private loopback;
   * a pasta network: a namespace of its own with outbound access (full-access agents).
   */
  network: boolean | PastaNetwork;
  /** Codex's inner sandbox creates namespaces of its own; a test command never needs to. */
  nestedSandbox: boolean;
  /**
   * Read-only files that exist only inside the jail, read by bubblewrap from an inherited file
   * descriptor (a push's token: never on disk, in an environment or in an argv).
   */
  data?: ReadonlyArray<{ fd: number; target: string }>;
}

/** /etc entries a program needs (users, name resolution, TLS roots, time zone, dynamic linker). */
const ETC = [
  "passwd",
  "group",
  "hosts",
  "hostname",
  "resolv.conf",
  "nsswitch.conf",
  "host.conf",
  "gai.conf",
  "protocols",
  "services",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "pki",
  "localtime",
  "timezone",
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "os-release",
  "debian_version",
  "mime.types",
  "gitconfig",
  "inputrc",
  "bash.bashrc",
  "profile",
  "environment",
  "locale.alias",
];
/** Top-level system directories, often symlinks into /usr (merged /usr). */
const SYSTEM_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/** The bwrap binary, or null when bubblewrap is not installed. */
export function findBwrap(pathVar = process.env.PATH ?? ""): string | null {
  return findProgram("bwrap", pathVar);
}

/** The system part of the jail: read-only /usr, the top-level links into it, a curated /etc. */
function systemArgs(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const dir of SYSTEM_DIRS) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(dir), dir);
    else if (st.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  for (const name of ETC) {
    const p = path.join("/etc", name);
    // Follow links (resolv.conf often points into /run): the jail gets the content, not the link.
    let real: string;
    try {
      real = fs.realpathSync(p);
    } catch {
      continue;
    }
    args.push("--ro-bind", real, p);
  }
  return args;
}

/** The bwrap argv (without the binary) that runs `command` inside the jail described by `spec`. */
export function jailArgs(spec: JailSpec, command: string[]): string[] {
  const pasta = typeof spec.network === "object" ? spec.network : null;
  const { uid, gid } = jailIds(pasta !== null);
  const args = [
    // A user namespace even for root: without it a root-started jail keeps every capability.
    "--unshare-user",
    "--uid",
    String(uid),
    "--gid",
    String(gid),
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(spec.network === false ? ["--unshare-net"] : []),
    "--hostname",
    "codexpi-agent",
    // The jail ends with the worker, and has no terminal of ours to push keystrokes into.
    "--die-with-parent",
    "--new-session",
    ...systemArgs(),
    "--tmpfs",
    "/tmp",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    // pasta creates the namespace's network interface through the tun device.
    ...(pasta ? ["--dev-bind", TUN_DEVICE, TUN_DEVICE] : []),
  ];
  if (!spec.nestedSandbox) args.push("--cap-drop", "ALL", "--disable-userns");
  for (const m of spec.mounts) args.push(m.writable ? "--bind" : "--ro-bind", m.source, m.target ?? m.source);
  for (const d of spec.data ?? []) args.push("--perms", "0400", "--ro-bind-data", String(d.fd), d.target);
  args.push("--chdir", spec.cwd, "--", ...(pasta ? [pasta.pasta, ...pastaArgs(pasta, command)] : command));
  return args;
}

const TUN_DEVICE = "/dev/net/tun";
/** The ids pasta runs as in a root-started jail (mapped to root outside): any but 0, see jailIds. */
const PASTA_JAIL_ID = 1000;

/**
 * The uid and gid inside the jail: the worker's own. pasta maps the user namespace it creates for
 * the agent as `0 <its uid> 1`, and the kernel refuses a process that dropped CAP_SETFCAP (pasta
 * does) a map of its parent's uid 0: under a root worker, pasta's view of the jail uses another id,
 * mapped to root all the same (the agent is uid 0 in its namespace, as a root worker's agents are).
 */
function jailIds(withPasta: boolean): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  if (!withPasta) return { uid, gid };
  return { uid: uid === 0 ? PASTA_JAIL_ID : uid, gid: gid === 0 ? PASTA_JAIL_ID : gid };
}

/**
 * The object stores a repository's alternates file lists (`git clone --shared`), resolved, those
 * that exist. The file may be agent-written: it is read without following a link or opening a
 * FIFO (which would hang the caller); what the caller then trusts of the list is its decision.
 */
export function listedAlternates(repo: string): string[] {
  const objects = path.join(repo, ".git", "objects");
  const text = readRegularFile(repo, path.join(".git", "objects", "info", "alternates"));
  if (!text) return [];
  return text
    .toString("utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => path.resolve(objects, l))
    .filter((d) => fs.existsSync(d));
}

/**
 * Git object stores a clone borrows from: shown read-only, so that git works inside the jail while
 * the project's objects stay untouchable. Only stores the caller expects (`allowed`, e.g. the
 * project's own `.git/objects`) are ever mounted: an agent cannot mount `/` by listing it.
 */
function alternateObjectDirs(workspace: string, allowed: readonly string[]): string[] {
  const ok = new Set(allowed.map(realOrSelf));
  return listedAlternates(workspace)
    .map(realOrSelf)
    .filter((d) => ok.has(d));
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The workspace mount and the expected object stores it borrows (alternates), as jail mounts. */
export function workspaceMounts(
  workspace: string,
  writable: boolean,
  allowedAlternates: readonly string[] = [],
): JailMount[] {
  return [
    { source: workspace, writable },
    ...alternateObjectDirs(workspace, allowedAlternates).map((d) => ({ source: d, writable: false })),
  ];
}
