import fs from "node:fs";
import { findProgram } from "./programs.js";

/**
 * A full-access agent's own network namespace. Codex must reach its model, so a full-access jail
 * cannot simply be cut off (`--unshare-net`); sharing the host's namespace, though, shows the
 * agent the host's abstract unix sockets and /proc/net. pasta (Debian `passt`) gives the jail a
 * namespace of its own with outbound TCP/UDP through a user-space stack: the internet and the
 * model stay reachable, the host's sockets do not. Loopback is the namespace's own: only the TCP
 * ports listed here are forwarded to the host's loopback (a model or proxy on 127.0.0.1).
 *
 * pasta runs inside the bubblewrap jail, as the parent of Codex: it lives in the jail's PID
 * namespace, so it dies with the jail whatever kills the worker (no process can be leaked).
 * pasta starts its command as root of the namespace's user namespace, with CAP_NET_ADMIN over it:
 * enough to route 127.0.0.1 out through pasta (route_localnet), which then connects to any port of
 * the host's loopback. Codex therefore starts through `capsh --caps=`, with no capability at all;
 * pasta's no_new_privs keeps it so across every exec (a nested user namespace gets capabilities
 * over itself only, never over this network namespace).
 */

/** A private network namespace reached through pasta. */
export interface PastaNetwork {
  /** The pasta binary. */
  pasta: string;
  /** capsh (Debian libcap2-bin), which drops every capability before Codex starts. */
  capsh: string;
  /** TCP ports of the host's loopback forwarded into the namespace's loopback (same numbers). */
  loopbackTcpPorts: number[];
  /**
   * Whether the namespace gets an address and a default route (outbound TCP/UDP to anywhere: a
   * project whose network is `open`). Without, its only ways out are the forwarded ports: the
   * turn's model gateway and, when the project lists hosts, its egress proxy.
   */
  outbound: boolean;
}

/** The programs of a private network, or null when passt, capsh or the tun device is missing. */
export function findNetworkStack(pathVar = process.env.PATH ?? ""): { pasta: string; capsh: string } | null {
  const pasta = findProgram("pasta", pathVar);
  const capsh = findProgram("capsh", pathVar);
  return pasta && capsh && fs.existsSync("/dev/net/tun") ? { pasta, capsh } : null;
}

/**
 * pasta's argv (without the binary) that runs `command` in a new namespace. Every automatic
 * forwarding is off (pasta's default `auto` would forward every port the host listens on), and
 * the gateway address is not mapped to the host's loopback (which would reach all of it).
 */
export function pastaArgs(net: PastaNetwork, command: readonly string[]): string[] {
  const ports = [...new Set(net.loopbackTcpPorts)].sort((a, b) => a - b);
  const [program = "", ...args] = command;
  return [
    ...(net.outbound ? ["--config-net"] : []),
    "--foreground",
    "--quiet",
    "--tcp-ports",
    "none",
    "--udp-ports",
    "none",
    "--tcp-ns",
    ports.length ? ports.join(",") : "none",
    "--udp-ns",
    "none",
    "--no-map-gw",
    "--",
    // capsh runs `program` with `args` (argv, no shell) once it has dropped every capability.
    net.capsh,
    "--caps=",
    `--shell=${program}`,
    "--",
    ...args,
  ];
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * TCP ports of loopback URLs in a Codex config (a provider's `base_url`, an MCP server's `url`…):
 * each is a service on the host the agent's Codex must still reach from its namespace.
 */
export function loopbackPortsOf(text: string): number[] {
  const ports = new Set<number>();
  for (const m of text.matchAll(/https?:\/\/[^\s"'<>]+/gi)) {
    let url: URL;
    try {
      url = new URL(m[0]);
    } catch {
      continue;
    }
    if (!LOOPBACK_HOST.test(url.hostname)) continue;
    ports.add(url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);
  }
  return [...ports];
}

/**
 * The loopback ports of the MCP servers the operator's Codex settings name (`mcp_servers.*.url`):
 * services on the host an agent's Codex may still reach. The model's own address is not among
 * them: the turn reaches its model only through its gateway.
 */
export function mcpLoopbackPorts(config: Record<string, unknown>): number[] {
  return loopbackPortsOf(JSON.stringify(config.mcp_servers ?? {}).replace(/"/g, " "));
}

/** The settings that decide a jail's network. */
export interface AgentNetworkSettings {
  /** `auto`: a routed turn gets a namespace of its own (pasta); `off`: the host's namespace. */
  netns: "auto" | "off";
}

/**
 * The network of one turn's jail. Every jail has a namespace of its own with only its loopback
 * (`false`): the forwarder inside answers on the ports of the turn's gateway, proxy and bridged
 * host services, which are its only ways out. A turn that keeps a route to anywhere (a full-access
 * turn of an `open` project) gets pasta's namespace, outbound to the internet but not the host;
 * the host's own namespace (`true`) only where pasta is missing or turned off (`doctor` warns).
 */
export function agentNetwork(
  settings: AgentNetworkSettings,
  outbound: boolean,
  stack: { pasta: string; capsh: string } | null = findNetworkStack(),
): boolean | PastaNetwork {
  if (!outbound) return false;
  if (settings.netns === "off" || !stack) return true;
  return { ...stack, outbound: true, loopbackTcpPorts: [] };
}

/** Whether a process is a jail's network stack (pasta runs as `passt`, `passt.avx2` or `pasta`). */
export function isNetworkStack(pid: number): boolean {
  try {
    return /^pas(?:st|ta)\b/.test(fs.readFileSync(`/proc/${pid}/comm`, "utf8"));
  } catch {
    return false;
  }
}
