import type { network as fr } from "../fr/network.js";
import type { Message } from "../message.js";

/** English messages of a project's network: its mode, the hosts it allows, presets (issue 31, item 3). */
export const network = {
  "reason.network_host_invalid":
    "`{host}` is not a host to allow: give a host name (`registry.npmjs.org`, or `*.example.com` for its subdomains) or an IP address, followed by `:PORT` unless it is 80 and 443, or a preset (npm, pypi, crates, github, debian, golang, rubygems, maven); no path, no user",
  "reason.network_hosts_missing": "name at least one host or preset (npm, pypi, crates, github, …)",
  "reason.network_port_invalid": "there is no port {port}: a port is a number from 1 to 65535",
  "reason.network_mode_invalid": "the network mode is off, allowlist or open (not {mode})",
  "reason.network_private_admins_only":
    "only admins may let the agents of {name} reach {host}: it is an address of this machine or its private network (loopback, link-local, LAN, `localhost`); ask an admin (`/codex project allow-host {name} {host}`)",
  "reason.network_role_admins_only":
    "only admins set the network of {name}: it is the install’s {role} project",

  "command.project.hosts.syntax": "/codex project allow-host|deny-host <name> <host[:port]|preset> …",
  "command.project.hosts.help":
    "The project’s owner (or an admin) adds hosts its agents may reach, or removes them; presets: npm, pypi, crates, github, debian, golang, rubygems, maven; a private address (`localhost`, 127.0.0.1, 10.x…): admins only.",

  "project.network_off": "Project *{name}*: its agents have no network now.",
  "project.network_allowlist": "Project *{name}*: its agents now reach only the hosts listed: {hosts}.",
  "project.network_allowlist_empty":
    "Project *{name}*: its agents reach only the hosts listed, and none is yet (no network): `/codex project allow-host {name} npm` adds some.",
  "project.network_open":
    "Project *{name}*: its agents reach any public host (a private address only when an admin lists it).",
  "project.hosts_allowed": "Project *{name}*: added {changed}. Hosts listed: {hosts}.",
  "project.hosts_already": "Project *{name}*: already listed, nothing changed. Hosts listed: {hosts}.",
  "project.hosts_denied": "Project *{name}*: removed {changed}. Hosts listed: {hosts}.",
  "project.hosts_not_listed":
    "Project *{name}*: none of these hosts was listed, nothing changed. Hosts listed: {hosts}.",
  "project.hosts_none": "none (no network)",
  "project.network_inactive":
    "The list applies only in allowlist mode, and *{name}* is in {mode} mode: `/codex project set {name} --network allowlist`.",

  "projects.network_off": "no network",
  "projects.network_open": "network open",
  "projects.network_empty": "network: no host listed",
  "projects.network_hosts": "network: {hosts}",

  "cli.project.network_set": "project {name} changed: network {mode}",
  "cli.project.hosts_added": "{name}: added {changed}",
  "cli.project.hosts_removed": "{name}: removed {changed}",
  "cli.project.hosts_unchanged": "{name}: nothing changed",
  "cli.project.hosts_list": "{name}: network {mode}, hosts listed: {hosts}",
  "cli.project.hosts_none": "none",
  "cli.project.network_off": "no network",
  "cli.project.network_open": "network open",
  "cli.project.network_hosts": "network {hosts}",
  "cli.error.network": "--network takes off, allowlist or open",
  "cli.error.hosts":
    "allow-host and deny-host take a project, then at least one HOST[:PORT] or preset ({presets})",

  "cli.doctor.name.egress": "project networks",
  "cli.doctor.egress_ok": "no project is open to the whole internet",
  "cli.doctor.egress_open":
    "project {name} is open to every public host; to limit it to what it needs, run `{allow}` then `{close}`",
  "cli.doctor.egress_open_unknown":
    "project {name} is open to every public host; to limit it, run `{close}`, then add the hosts it needs (codexpi project allow-host)",
} satisfies Record<keyof typeof fr, Message>;
