import path from "node:path";
import { formatHostEntry, type NetworkPolicy, projectNetwork } from "../network/index.js";
import type { Project } from "../schema.js";

// How a project's setup reaches the network: the project's own policy (a setup allowlist of its
// own is not kept yet: a setup reaches what its agents may). Like an agent's jail, the setup's has
// no network of its own; when the policy lets anything out, the runner starts the project's egress
// proxy outside the jail and the forwarder inside leads the proxy variables' port to it.

/** How a setup reaches the network: its policy, the hosts as the cache key sees them, where its socket goes. */
export interface SetupNetwork {
  policy: NetworkPolicy;
  /** The allowlist (hosts), as the cache key sees it: sorted, one entry per host[:port], and the mode. */
  allowlist: readonly string[];
  /** Where the run's socket directory is made (under the data directory, no jail sees it whole). */
  runDir: string;
}

/** The network a project's setup runs with. */
export function setupNetwork(
  project: Pick<Project, "network_mode" | "network_hosts">,
  dataDir: string,
): SetupNetwork {
  const policy = projectNetwork(project);
  return {
    policy,
    allowlist: [`mode:${policy.mode}`, ...policy.hosts.map(formatHostEntry).sort()],
    runDir: path.join(dataDir, "run"),
  };
}
