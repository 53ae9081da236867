import type { Logger } from "pino";
import {
  GATEWAY_TOKEN_ENV,
  type GatewayUsage,
  gatewayOverrides,
  jailConfigToml,
  type ModelGateway,
  readOperatorConfig,
  resolveUpstream,
  STAND_IN_AUTH,
  startModelGateway,
} from "../gateway/index.js";
import { type EgressProxy, type EgressRefusal, type EgressRules, startEgressProxy } from "../egress/index.js";
import { mcpLoopbackPorts } from "../isolation/index.js";
import type { SandboxMode } from "../isolation/index.js";

/**
 * The services a jailed turn reaches outside its jail, started by its worker before Codex and
 * ended with the turn: the model gateway (always) and the egress proxy (when the project lists
 * hosts). The worker holds them, so they live exactly as long as the turn, on every worker host.
 */

/** How a project's agents reach the network, as the turn needs it. */
export interface TurnNetworkPolicy {
  mode: "off" | "allowlist" | "open";
  /** The list's rules (allowlist mode with at least one host); null: no proxy. */
  rules: EgressRules | null;
}

/** A turn's running services and what the jail needs to reach them. */
export interface TurnServices {
  /** Host loopback ports the jail forwards (gateway, proxy, MCP servers). */
  ports: number[];
  /** Whether the namespace routes outbound traffic anywhere (`open`). */
  outbound: boolean;
  /** Codex's jail files (no credential in them). */
  files: { configToml: string; authJson: string };
  /** Codex's variables (the turn's stand-in token). */
  env: Record<string, string>;
  /** `-c` words for Codex: its gateway, its commands' network. */
  overrides: string[];
  usage(): GatewayUsage;
  refusals(): EgressRefusal[];
  end(): Promise<void>;
}

/** The proxy variables a command sees (both cases: curl reads only lower-case `http_proxy`). */
function proxyVariables(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const vars: Record<string, string> = {};
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]) {
    vars[name] = url;
    vars[name.toLowerCase()] = url;
  }
  // Nothing bypasses the proxy: a listed local server is reached through it too.
  vars.NO_PROXY = "";
  vars.no_proxy = "";
  return vars;
}

/** `-c shell_environment_policy.set.K="v"` for each variable: what Codex's commands get. */
function commandVariables(vars: Record<string, string>): string[] {
  return Object.entries(vars).flatMap(([k, v]) => ["-c", `shell_environment_policy.set.${k}=${JSON.stringify(v)}`]);
}

/**
 * Starts the turn's services. Throws (an UpstreamError, a config.toml parse error) when the
 * model's credential cannot be found: the turn then fails before Codex starts.
 */
export async function startTurnServices(
  log: Logger,
  input: { operatorHome: string; env: NodeJS.ProcessEnv; sandbox: SandboxMode; network: TurnNetworkPolicy },
): Promise<TurnServices> {
  const config = readOperatorConfig(input.operatorHome);
  const upstream = resolveUpstream(input.operatorHome, input.env, config);
  const gateway: ModelGateway = await startModelGateway({ upstream, log });
  let proxy: EgressProxy | null = null;
  try {
    if (input.network.mode === "allowlist" && input.network.rules)
      proxy = await startEgressProxy({
        rules: input.network.rules,
        onRefused: (r) => log.info({ host: r.host, port: r.port, reason: r.reason }, "egress refused"),
      });
  } catch (err) {
    await gateway.end();
    throw err;
  }
  const overrides = [...gatewayOverrides(gateway.port)];
  const restricted = input.sandbox === "restricted";
  const reachesOut = input.network.mode === "open" || proxy !== null;
  // Codex's own sandbox cuts its commands off every socket unless told otherwise; the jail's
  // namespace (no route but the proxy, or `open`) is what bounds them then.
  if (restricted) overrides.push("-c", `sandbox_workspace_write.network_access=${reachesOut}`);
  if (proxy) overrides.push(...commandVariables(proxyVariables(proxy.port)));
  return {
    ports: [gateway.port, ...(proxy ? [proxy.port] : []), ...mcpLoopbackPorts(config)],
    outbound: input.network.mode === "open",
    files: { configToml: jailConfigToml(config, upstream), authJson: STAND_IN_AUTH },
    env: { [GATEWAY_TOKEN_ENV]: gateway.token },
    overrides,
    usage: () => gateway.usage(),
    refusals: () => proxy?.refusals() ?? [],
    async end() {
      await Promise.all([gateway.end(), proxy?.close()]);
    },
  };
}
