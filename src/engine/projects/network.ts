import { writeTransaction, type Database } from "../database.js";
import { EngineError } from "../errors.js";
import {
  type HostEntry,
  type NetworkMode,
  type NetworkPolicy,
  NETWORK_MODES,
  expandHostArgs,
  formatHostEntry,
  hostsColumn,
  isPrivateEntry,
  projectNetwork,
} from "../network/index.js";
import type { Project } from "../schema.js";
import type { Actor } from "./projectRights.js";
import { getProject, projectForOwner } from "./projects.js";

// Who changes a project's egress policy (issue 31, item 3): its owner and admins; a master or
// self project's, admins only (its agents act for the whole install); and only admins list a
// private entry (an address on this machine or its LAN), since an owner reaching the host's own
// services through their agent is the very hole the list closes.

/** What a change of a project's hosts did: the project after it, its policy, the entries changed. */
export interface NetworkChange {
  project: Project;
  network: NetworkPolicy;
  /** The entries added (allow) or removed (deny); those already so are not in it. */
  changed: HostEntry[];
}

/** The project whose network the actor may change, read in `trx`. */
async function projectToConfigure(trx: Database, actor: Actor, name: string): Promise<Project> {
  const project = await projectForOwner(trx, actor, name);
  if (project.role !== "project" && !actor.isAdmin)
    throw new EngineError("forbidden", "network_role_admins_only", {
      name: project.name,
      role: project.role,
    });
  return project;
}

/** Sets how the project's agents reach the network: `off`, `allowlist` (its list) or `open`. */
export async function setNetworkMode(
  db: Database,
  actor: Actor,
  name: string,
  mode: NetworkMode,
): Promise<Project> {
  if (!NETWORK_MODES.includes(mode)) throw new EngineError("invalid", "network_mode_invalid", { mode });
  return writeTransaction(db, async (trx) => {
    const project = await projectToConfigure(trx, actor, name);
    await trx.updateTable("projects").set({ network_mode: mode }).where("id", "=", project.id).execute();
    return getProject(trx, project.id);
  });
}

/**
 * Adds hosts (entries or presets) to the project's list; a private entry from someone who is no
 * admin refuses the whole change, naming it.
 */
export async function allowHosts(
  db: Database,
  actor: Actor,
  name: string,
  args: readonly string[],
): Promise<NetworkChange> {
  const wanted = expandHostArgs(args);
  if (!wanted.length) throw new EngineError("invalid", "network_hosts_missing");
  // Read, check and write under one lock: two people adding hosts at once both keep theirs.
  return writeTransaction(db, async (trx) => {
    const project = await projectToConfigure(trx, actor, name);
    const privateOne = actor.isAdmin ? undefined : wanted.find(isPrivateEntry);
    if (privateOne)
      throw new EngineError("forbidden", "network_private_admins_only", {
        name: project.name,
        host: formatHostEntry(privateOne),
      });
    const before = projectNetwork(project).hosts;
    const listed = new Set(before.map(formatHostEntry));
    const changed = wanted.filter((e) => !listed.has(formatHostEntry(e)));
    return save(trx, project, [...before, ...changed], changed);
  });
}

/**
 * Removes hosts from the project's list: an entry with a port removes that entry; one without a
 * port, every entry of that host; a preset, its hosts.
 */
export async function denyHosts(
  db: Database,
  actor: Actor,
  name: string,
  args: readonly string[],
): Promise<NetworkChange> {
  const named = expandHostArgs(args);
  if (!named.length) throw new EngineError("invalid", "network_hosts_missing");
  const removes = (e: HostEntry) =>
    named.some((n) => n.host === e.host && (n.port === null || n.port === e.port));
  return writeTransaction(db, async (trx) => {
    const project = await projectToConfigure(trx, actor, name);
    const before = projectNetwork(project).hosts;
    return save(
      trx,
      project,
      before.filter((e) => !removes(e)),
      before.filter(removes),
    );
  });
}

async function save(
  trx: Database,
  project: Project,
  hosts: HostEntry[],
  changed: HostEntry[],
): Promise<NetworkChange> {
  if (changed.length)
    await trx
      .updateTable("projects")
      .set({ network_hosts: hostsColumn(hosts) })
      .where("id", "=", project.id)
      .execute();
  const after = await getProject(trx, project.id);
  return { project: after, network: projectNetwork(after), changed };
}
