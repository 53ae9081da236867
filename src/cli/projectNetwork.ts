import {
  CLI_ACTOR,
  type NetworkChange,
  type NetworkMode,
  type NetworkPolicy,
  NETWORK_MODES,
  PRESET_NAMES,
  formatHostEntry,
  projectNetwork,
} from "../engine/api/model.js";
import type { EngineApi } from "../engine/api/index.js";
import { t, type Locale } from "../i18n/index.js";
import { args, cliEngine, cliLocale, out, UsageError } from "./context.js";

// A project's network from the command line (issue 31, item 3): `project set NAME --network
// MODE`, `project allow-host|deny-host NAME HOST[:PORT]|PRESET…`. The operator is an admin, so
// private entries (localhost, 10.x, …) are accepted here.

/** A `--network` value, checked before anything opens the database. */
export function networkArgument(value: string): NetworkMode {
  if (!(NETWORK_MODES as readonly string[]).includes(value))
    throw new UsageError(t(cliLocale(), "cli.error.network"));
  return value as NetworkMode;
}

/** Applies `project set --network` and says the project's network now. */
export async function setNetworkOption(api: EngineApi, locale: Locale, name: string, mode: NetworkMode) {
  const p = await api.projects.setNetworkMode(CLI_ACTOR, name, mode);
  out(t(locale, "cli.project.network_set", { name: p.name, mode: p.network_mode }));
  out(hostsLine(locale, p.name, projectNetwork(p)));
}

const hostsLine = (locale: Locale, name: string, network: NetworkPolicy) =>
  t(locale, "cli.project.hosts_list", {
    name,
    mode: network.mode,
    hosts: network.hosts.map(formatHostEntry).join(", ") || t(locale, "cli.project.hosts_none"),
  });

/** `project allow-host NAME HOST…` (allowed) or `project deny-host NAME HOST…`. */
export async function projectHosts(argv: string[], allowed: boolean): Promise<number> {
  const words = argv.filter((a) => a !== "--");
  const usage = () => new UsageError(t(cliLocale(), "cli.error.hosts", { presets: PRESET_NAMES.join(", ") }));
  if (words.length < 2) throw usage();
  args(argv, {}, words.length); // refuses any option, naming it
  const [name, ...hosts] = words as [string, ...string[]];
  const { db, api, config } = await cliEngine();
  try {
    const change: NetworkChange = allowed
      ? await api.projects.allowHosts(CLI_ACTOR, name, hosts)
      : await api.projects.denyHosts(CLI_ACTOR, name, hosts);
    const changed = change.changed.map(formatHostEntry).join(", ");
    const said = allowed ? "cli.project.hosts_added" : "cli.project.hosts_removed";
    out(
      changed
        ? t(config.locale, said, { name: change.project.name, changed })
        : t(config.locale, "cli.project.hosts_unchanged", { name: change.project.name }),
    );
    out(hostsLine(config.locale, change.project.name, change.network));
    return 0;
  } finally {
    await db.destroy();
  }
}

/** How `project list` shows a project's network: none, open, or the hosts of its allowlist. */
export function networkFlag(locale: Locale, p: { network_mode: string; network_hosts: string }): string {
  const network = projectNetwork(p);
  if (network.mode === "open") return t(locale, "cli.project.network_open");
  if (network.mode === "off" || !network.hosts.length) return t(locale, "cli.project.network_off");
  return t(locale, "cli.project.network_hosts", { hosts: network.hosts.map(formatHostEntry).join(", ") });
}
