import { type HostEntry, type NetworkPolicy, formatHostEntry } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { escapeClip } from "./mrkdwn.js";

// What Slack says of a project's network (issue 31, item 3): the answers to `project set
// --network` and `project allow-host|deny-host`, and the fact `/codex projects` shows.

/** Entries as code spans, clipped so that a long list never overflows a message. */
const entries = (hosts: readonly HostEntry[]): string =>
  escapeClip(hosts.map((h) => `\`${formatHostEntry(h)}\``).join(", "), 1500);

/** The hosts listed, or "none (no network)". */
const listed = (locale: Locale, network: NetworkPolicy): string =>
  network.hosts.length ? entries(network.hosts) : t(locale, "project.hosts_none");

/** The answer to `project set NAME --network MODE`: what its agents reach now. */
export function networkSetText(locale: Locale, name: string, network: NetworkPolicy): string {
  if (network.mode === "off") return t(locale, "project.network_off", { name });
  if (network.mode === "open") return t(locale, "project.network_open", { name });
  return network.hosts.length
    ? t(locale, "project.network_allowlist", { name, hosts: entries(network.hosts) })
    : t(locale, "project.network_allowlist_empty", { name });
}

/**
 * The answer to `allow-host` (allowed) or `deny-host`: what changed and the list now, and, when
 * the project is not in allowlist mode, that the list waits for it.
 */
export function hostsChangeText(
  locale: Locale,
  change: { name: string; network: NetworkPolicy; changed: readonly HostEntry[] },
  allowed: boolean,
): string {
  const { name, network, changed } = change;
  const hosts = listed(locale, network);
  const said = changed.length
    ? t(locale, allowed ? "project.hosts_allowed" : "project.hosts_denied", {
        name,
        changed: entries(changed),
        hosts,
      })
    : t(locale, allowed ? "project.hosts_already" : "project.hosts_not_listed", { name, hosts });
  if (network.mode === "allowlist") return said;
  return `${said}\n${t(locale, "project.network_inactive", { name, mode: network.mode })}`;
}

/** A project's network as `/codex projects` shows it to admins and its owner. */
export function networkFact(locale: Locale, network: NetworkPolicy): string {
  if (network.mode === "open") return t(locale, "projects.network_open");
  if (network.mode === "off") return t(locale, "projects.network_off");
  return network.hosts.length
    ? t(locale, "projects.network_hosts", { hosts: entries(network.hosts) })
    : t(locale, "projects.network_empty");
}
