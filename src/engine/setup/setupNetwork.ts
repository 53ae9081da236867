import type { JailSpec } from "../isolation/index.js";
import type { Project } from "../schema.js";

// THE SEAM for the egress proxy (issue 31, item 3). The setup runner takes its network from here
// and nowhere else: the jail's `network` and the variables that point programs at the proxy
// (HTTP_PROXY and friends). Today a setup has no network at all (a private loopback, like an
// acceptance test). The lead's egress proxy, outside every jail, plugs in here: it returns the
// jail's network for the proxy, the proxy variables, and the setup allowlist (default: the
// project's), which is part of the setup's cache key — a setup that may reach other hosts may
// produce another result.

/** How a setup reaches the network: the jail's network, variables to add, and the hosts it may reach. */
export interface SetupNetwork {
  network: JailSpec["network"];
  /** Added to the setup's environment (proxy variables). */
  env: Record<string, string>;
  /** The setup allowlist (hosts), as the cache key sees it: sorted, one entry per host[:port]. */
  allowlist: readonly string[];
}

/** The network a project's setup runs with. Today: none (the egress proxy replaces this). */
export function setupNetwork(_project: Pick<Project, "id" | "name">): SetupNetwork {
  return { network: false, env: {}, allowlist: [] };
}
