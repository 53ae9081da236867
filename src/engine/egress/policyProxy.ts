import path from "node:path";
import { isPrivateAddress, isPrivateEntry, matchHost, type NetworkPolicy } from "../network/index.js";
import { type EgressProxy, type EgressRefusal, startEgressProxy } from "./egressProxy.js";

/**
 * A project's egress proxy: its network policy as the proxy's rules. A listed private entry lets
 * its private address through; `open` lets every public host through and no private one.
 */
export function startPolicyProxy(
  socketDir: string,
  policy: NetworkPolicy,
  onRefused?: (r: EgressRefusal) => void,
): Promise<EgressProxy> {
  return startEgressProxy({
    socketPath: path.join(socketDir, "proxy.sock"),
    rules: {
      match: (host, port) => {
        const entry = matchHost(policy, host, port);
        return entry ? { privateAllowed: policy.mode !== "open" && isPrivateEntry(entry) } : null;
      },
      isPrivateAddress,
    },
    onRefused,
  });
}

/** Whether a policy lets anything out through the proxy (`off` and an empty list do not). */
export const proxyNeeded = (policy: NetworkPolicy): boolean =>
  policy.mode === "open" || (policy.mode === "allowlist" && policy.hosts.length > 0);

/** The variables that send a program's connections to the proxy (both cases: curl reads `http_proxy`). */
export function proxyVariables(port: number): Record<string, string> {
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
