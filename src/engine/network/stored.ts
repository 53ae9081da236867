import { type NetworkMode, NETWORK_MODES } from "./mode.js";
import { type HostEntry, type NetworkPolicy, formatHostEntry, parseHostEntry } from "./policy.js";

// How a policy is kept on a project's row (migration 0031): `network_mode` and `network_hosts`, a
// JSON array of entries as `formatHostEntry` spells them.

/** The columns of a project's row that hold its policy. */
export interface NetworkColumns {
  network_mode: string;
  network_hosts: string;
}

/** A project's policy from its row. A value the engine never writes reads as the closed `off`. */
export function projectNetwork(row: NetworkColumns): NetworkPolicy {
  const mode = (NETWORK_MODES as readonly string[]).includes(row.network_mode)
    ? (row.network_mode as NetworkMode)
    : "off";
  return { mode, hosts: storedHosts(row.network_hosts) };
}

/** The entries of a `network_hosts` column; one that no longer parses is left out (fail closed). */
function storedHosts(column: string): HostEntry[] {
  let list: unknown;
  try {
    list = JSON.parse(column);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const hosts: HostEntry[] = [];
  for (const text of list) {
    if (typeof text !== "string") continue;
    try {
      hosts.push(parseHostEntry(text));
    } catch {
      // Skipped: a list that cannot be read allows less, never more.
    }
  }
  return hosts;
}

/** The `network_hosts` column of a list of entries, each once, in order. */
export function hostsColumn(hosts: readonly HostEntry[]): string {
  return JSON.stringify([...new Set(hosts.map(formatHostEntry))]);
}
