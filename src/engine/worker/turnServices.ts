import { randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import {
  GATEWAY_TOKEN_ENV,
  type GatewayUsage,
  gatewayOverrides,
  jailConfigToml,
  readOperatorConfig,
  resolveUpstream,
  STAND_IN_AUTH,
  startModelGateway,
} from "../gateway/index.js";
import {
  type EgressProxy,
  type EgressRefusal,
  proxyNeeded,
  proxyVariables,
  startPolicyProxy,
  startPortBridge,
} from "../egress/index.js";
import { mcpLoopbackPorts, type SandboxMode } from "../isolation/index.js";
import type { NetworkPolicy } from "../network/index.js";
import type { ModelLink, ModelLinkEvent } from "../codex/index.js";

/**
 * The services a jailed turn reaches outside its jail, started by its worker before Codex and
 * ended with the turn: the model gateway (always), the egress proxy (when the project's network
 * lets the turn out through it) and bridges to the host services the operator forwards. Each
 * listens on a unix socket in the turn's own directory, which its jail shows read-only; inside,
 * the forwarder (isolation/forwarder.ts) answers on loopback ports. The worker holds them, so
 * they live exactly as long as the turn, on every worker host.
 */

/** A turn's running services and what the jail needs to reach them. */
export interface TurnServices {
  /** The turn's socket directory on the host (bound read-only into the jail). */
  socketDir: string;
  /** Loopback ports inside the jail and the socket (a name in socketDir) each leads to. */
  forwards: Array<[port: number, socket: string]>;
  /** The jail gets a route to anywhere (a full-access turn of an `open` project, through pasta). */
  outbound: boolean;
  /** Codex's jail files (no credential in them). */
  files: { configToml: string; authJson: string };
  /** Codex's variables (the turn's stand-in token). */
  env: Record<string, string>;
  /** `-c` words for Codex: its gateway, its commands' network. */
  overrides: string[];
  usage(): GatewayUsage;
  refusals(): EgressRefusal[];
  /** What the gateway says of its model (unreachable, reached), for the turn's runner. */
  modelLink: ModelLink;
  /** How long, so far, the gateway held Codex's requests while the model could not be reached (ms). */
  unreachableMs(): number;
  end(): Promise<void>;
}

/** What decides a turn's network: the project's policy, its sandbox, whether pasta can route it. */
export interface TurnNetworkInput {
  policy: NetworkPolicy;
  sandbox: SandboxMode;
  /** Host loopback ports every jail may reach (CODEXPI_NETNS_PORTS). */
  extraPorts: readonly number[];
}

/** `-c shell_environment_policy.set.K="v"` for each variable: what Codex's commands get. */
function commandVariables(vars: Record<string, string>): string[] {
  return Object.entries(vars).flatMap(([k, v]) => [
    "-c",
    `shell_environment_policy.set.${k}=${JSON.stringify(v)}`,
  ]);
}

/** A loopback port of the jail's own namespace, not among `taken`. */
function freePort(taken: Set<number>): number {
  for (;;) {
    const p = randomInt(20_000, 60_000);
    if (!taken.has(p)) {
      taken.add(p);
      return p;
    }
  }
}

/**
 * How the turn reaches out: `route` — a full-access turn of an `open` project keeps its own route
 * to anywhere (pasta; the host's namespace where pasta is missing), as before the allowlist existed; `proxy` — the egress proxy, for a list of
 * hosts, or for a restricted turn of an `open` project (Codex's sandbox cannot nest in pasta's
 * namespace, and the proxy still keeps private addresses out); `none`.
 */
export function egressOf(input: Pick<TurnNetworkInput, "policy" | "sandbox">): "route" | "proxy" | "none" {
  const { mode } = input.policy;
  if (mode === "open" && input.sandbox === "full_access") return "route";
  return proxyNeeded(input.policy) ? "proxy" : "none";
}

/** A turn's socket directory older than this was left by a killed worker (no turn lasts a day). */
const LEFTOVER_MS = 24 * 3600_000;

let pruned = false;

/** Removes socket directories killed workers left behind, once per process (best effort: workers may race). */
function pruneLeftovers(runDir: string): void {
  if (pruned) return;
  pruned = true;
  const now = Date.now();
  for (const name of fs.readdirSync(runDir)) {
    const dir = path.join(runDir, name);
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (st?.isDirectory() && now - st.mtimeMs > LEFTOVER_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the turn's services under `runDir` (a directory of the data dir no jail shows). Throws
 * (an UpstreamError, a config.toml parse error) when the model's credential cannot be found: the
 * turn then fails before Codex starts.
 */
export async function startTurnServices(
  log: Logger,
  input: { operatorHome: string; env: NodeJS.ProcessEnv; runDir: string; network: TurnNetworkInput },
): Promise<TurnServices> {
  const config = readOperatorConfig(input.operatorHome);
  const upstream = resolveUpstream(input.operatorHome, input.env, config);
  fs.mkdirSync(input.runDir, { recursive: true, mode: 0o700 });
  pruneLeftovers(input.runDir);
  const socketDir = fs.mkdtempSync(path.join(input.runDir, "turn-"));
  const stops: Array<() => Promise<void>> = [
    async () => fs.rmSync(socketDir, { recursive: true, force: true }),
  ];
  const end = async () => {
    await Promise.all(stops.splice(0).map((s) => s().catch(() => undefined)));
  };
  try {
    const listeners = new Set<(e: ModelLinkEvent) => void>();
    // Waiting for the model is not work: its spans are summed ("Done in" leaves them out).
    const waiting = unreachableClock();
    const tell = (e: ModelLinkEvent) => {
      waiting.on(e);
      for (const l of listeners) l(e);
    };
    const gateway = await startModelGateway({
      upstream,
      log,
      socketPath: path.join(socketDir, "gateway.sock"),
      // In Codex's own words for its retries: the runner folds it as it would Codex's notice.
      onUnreachable: (_attempt, cause) =>
        tell({ kind: "unreachable", notice: `Reconnecting... waiting for network (${cause})` }),
      onReached: () => tell({ kind: "reached" }),
    });
    stops.unshift(() => gateway.end());
    const forwards: Array<[number, string]> = [];
    const bridged = [...new Set([...mcpLoopbackPorts(config), ...input.network.extraPorts])];
    const taken = new Set(bridged);
    for (const port of bridged) {
      const bridge = await startPortBridge(path.join(socketDir, `port-${port}.sock`), port);
      stops.unshift(() => bridge.close());
      forwards.push([port, `port-${port}.sock`]);
    }
    const gatewayPort = freePort(taken);
    forwards.push([gatewayPort, "gateway.sock"]);
    const egress = egressOf(input.network);
    let proxy: EgressProxy | null = null;
    const overrides = [...gatewayOverrides(gatewayPort)];
    if (egress === "proxy") {
      proxy = await startPolicyProxy(socketDir, input.network.policy, (r) =>
        log.info({ host: r.host, port: r.port, reason: r.reason }, "egress refused"),
      );
      const p = proxy;
      stops.unshift(() => p.close());
      const proxyPort = freePort(taken);
      forwards.push([proxyPort, "proxy.sock"]);
      overrides.push(...commandVariables(proxyVariables(proxyPort)));
    }
    // Codex's own sandbox cuts its commands off every socket unless told otherwise; then the
    // jail's namespace (the proxy its only way out, or a route for `open`) is what bounds them.
    if (input.network.sandbox === "restricted")
      overrides.push("-c", `sandbox_workspace_write.network_access=${egress !== "none"}`);
    return {
      socketDir,
      forwards,
      outbound: egress === "route",
      files: { configToml: jailConfigToml(config, upstream), authJson: STAND_IN_AUTH },
      env: { [GATEWAY_TOKEN_ENV]: gateway.token },
      overrides,
      usage: () => gateway.usage(),
      refusals: () => proxy?.refusals() ?? [],
      unreachableMs: () => waiting.total(),
      modelLink: {
        subscribe(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      end,
    };
  } catch (err) {
    await end();
    throw err;
  }
}

/** Sums the spans from the model's first "unreachable" to its "reached" (an open span counts until now). */
function unreachableClock(now: () => number = Date.now) {
  let since: number | null = null;
  let total = 0;
  return {
    on(e: ModelLinkEvent): void {
      if (e.kind === "unreachable") since ??= now();
      else if (since !== null) {
        total += now() - since;
        since = null;
      }
    },
    total: (): number => total + (since === null ? 0 : now() - since),
  };
}
