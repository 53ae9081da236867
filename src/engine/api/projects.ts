import path from "node:path";
import type { Kernel } from "../kernel.js";
import type { Database } from "../database.js";
import {
  addProject,
  assertAdmin,
  channelsOpenToMembers,
  listProjects,
  projectForActor,
  projectForOwner,
  removeProject,
  setProjectPrompter,
  setProjectSteer,
  setProjectThreadPrompters,
  setProjectVisibility,
  setWorkspaceMode,
  defaultWorkspaceMode,
  allowHosts,
  denyHosts,
  setNetworkMode,
  type NetworkChange,
  updateProject,
  type Actor,
  type NewProject,
  type ProjectUpdate,
} from "../projects/index.js";
import type { Project, ProjectVisibility, ThreadPrompters, WorkspaceMode } from "../schema.js";
import type { NetworkMode } from "../network/index.js";
import { installLayoutProblems, installRoots, type LayoutProblem } from "../projects/index.js";
import { copyCodexSessions, hostDataDir, moveProject } from "../projects/index.js";
import { promptTarget, shareProject, unshareProject, type PromptTarget } from "../projects/index.js";
import { redrawLaneCards } from "../lanes/index.js";
import {
  type ForgeSettings,
  type ForgeView,
  projectForgeView,
  forgeTokenPath,
  removeForgeToken,
  setForge,
  writeForgeToken,
} from "../forge/index.js";

type Move = Awaited<ReturnType<typeof moveProject>>;

/** Projects: who may see and prompt them, their settings, where they live. */
export interface ProjectsApi {
  /**
   * Adds a project (admins only); without a workspace mode, a git repository root starts in
   * `branch` mode and any other directory in `direct`.
   */
  add(actor: Actor, input: NewProject): Promise<Project>;
  /** The projects the actor may see. */
  list(actor: Actor): Promise<Project[]>;
  /** A project the actor may prompt (or read), by name; not_found otherwise. */
  forActor(actor: Actor, name: string): Promise<Project>;
  /** A project the actor owns (or any, for an admin), by name. */
  forOwner(actor: Actor, name: string): Promise<Project>;
  update(actor: Actor, name: string, changes: ProjectUpdate): Promise<Project>;
  remove(actor: Actor, name: string): Promise<Project>;
  setVisibility(actor: Actor, name: string, visibility: ProjectVisibility): Promise<Project>;
  setSteer(actor: Actor, name: string, on: boolean): Promise<Project>;
  /**
   * Who may follow up, stop and answer decisions in its conversations (its owner or an admin):
   * `prompters`, anyone allowed to prompt it; `author`, the conversation's person only.
   */
  setThreadPrompters(actor: Actor, name: string, who: ThreadPrompters): Promise<Project>;
  /**
   * Where its conversations work (admins): `direct` in its checkout, one agent at a time; `branch`
   * a lane each (refused for a directory that is no git repository root).
   */
  setWorkspaceMode(actor: Actor, name: string, mode: WorkspaceMode): Promise<Project>;
  setPrompter(actor: Actor, name: string, userId: string, allowed: boolean): Promise<Project>;
  /**
   * Shares it with a channel (its owner or an admin): the channel's members read it, and prompt it
   * with `prompt`. The front end says who belongs to the channel (`Actor.channels`).
   */
  share(actor: Actor, name: string, channel: string, prompt: boolean): Promise<Project>;
  /** Stops sharing it with a channel (its owner or an admin); `removed`: whether it was shared. */
  unshare(actor: Actor, name: string, channel: string): Promise<{ project: Project; removed: boolean }>;
  /**
   * How its agents reach the network (its owner or an admin; a master or self project, admins):
   * `off`, `allowlist` (only the hosts listed) or `open`.
   */
  setNetworkMode(actor: Actor, name: string, mode: NetworkMode): Promise<Project>;
  /**
   * Adds hosts to its allowlist: entries (`host[:port]`, `*.domain`, an IP) or presets (`npm`, …);
   * only admins list a private one (loopback, link-local, LAN addresses, `localhost`).
   */
  allowHosts(actor: Actor, name: string, hosts: readonly string[]): Promise<NetworkChange>;
  /** Removes hosts from its allowlist (an entry without a port: every port of that host). */
  denyHosts(actor: Actor, name: string, hosts: readonly string[]): Promise<NetworkChange>;
  /**
   * Where its branches are pushed and its pull requests opened (admins): the remote, the forge,
   * the API's base URL, the repository; null clears a field (derived again from the remote's URL).
   */
  setForge(actor: Actor, name: string, changes: ForgeSettings): Promise<Project>;
  /**
   * Its forge settings as an admin reads them (admins): the remote and its URL, what was set and
   * what pull requests use, which token is stored (never the token), what its lanes can do.
   */
  forgeView(actor: Actor, name: string): Promise<ForgeView>;
  /**
   * Stores a forge token (admins) for a project, or for the whole install with a null name, in a
   * 0600 file under the data directory's credentials/ (never in the database); answers the file.
   */
  setForgeToken(actor: Actor, name: string | null, token: string): Promise<string>;
  /** Removes a stored forge token (admins); answers the file and whether there was one. */
  removeForgeToken(actor: Actor, name: string | null): Promise<{ file: string; removed: boolean }>;
  /** Moves a project to a worker host (or back to the coordinator's machine with null). */
  move(actor: Actor, name: string, to: string | null): Promise<Move>;
  /** Where a host keeps its data (its Codex state), if it registered. */
  hostDataDir(host: string | null): Promise<string | null>;
  /** Copies a project's Codex sessions from one data directory to another; answers how many. */
  copyCodexSessions(fromDataDir: string, toDataDir: string, projectId: string): number;
  /** The channels that open a project to their members. */
  channelsOpenToMembers(): Promise<string[]>;
  /** Which project a message in a channel or a DM is for (a name it starts with, the channel's default). */
  promptTarget(
    actor: Actor,
    text: string,
    where: { channelDefault: string | null; dm: boolean },
  ): Promise<PromptTarget | null>;
  /** What is wrong with where projects and the data directory are (overlaps, missing paths). */
  layoutProblems(): Promise<LayoutProblem[]>;
  /** Refuses anyone but an admin. */
  assertAdmin(actor: Actor): void;
}

export function projectsApi(kernel: Kernel): ProjectsApi {
  const db: Database = kernel.db;
  const roots = installRoots(kernel.config);
  return {
    add: async (actor, input) => {
      assertAdmin(actor);
      // A git repository root starts in branch mode (a lane per conversation), anything else direct.
      const workspaceMode =
        input.workspaceMode ?? (await defaultWorkspaceMode(kernel.config.jail, path.resolve(input.path)));
      return addProject(db, kernel.clock, { ...input, workspaceMode }, roots);
    },
    list: (actor) => listProjects(db, actor),
    forActor: (actor, name) => projectForActor(db, actor, name),
    forOwner: (actor, name) => projectForOwner(db, actor, name),
    update: (actor, name, changes) => updateProject(db, actor, name, changes, roots),
    remove: (actor, name) => removeProject(db, actor, name),
    setVisibility: (actor, name, visibility) => setProjectVisibility(db, actor, name, visibility),
    setSteer: (actor, name, on) => setProjectSteer(db, actor, name, on),
    setThreadPrompters: (actor, name, who) => setProjectThreadPrompters(db, actor, name, who),
    setWorkspaceMode: (actor, name, mode) => setWorkspaceMode(db, kernel.config.jail, actor, name, mode),
    setPrompter: (actor, name, userId, allowed) =>
      setProjectPrompter(db, kernel.clock, actor, name, userId, allowed),
    share: (actor, name, channel, prompt) => shareProject(db, kernel.clock, actor, name, channel, prompt),
    unshare: (actor, name, channel) => unshareProject(db, actor, name, channel),
    setNetworkMode: (actor, name, mode) => setNetworkMode(db, actor, name, mode),
    allowHosts: (actor, name, hosts) => allowHosts(db, actor, name, hosts),
    denyHosts: (actor, name, hosts) => denyHosts(db, actor, name, hosts),
    setForge: async (actor, name, changes) => {
      const project = await setForge(db, actor, name, changes);
      await redrawLaneCards(kernel, project.id);
      return project;
    },
    forgeView: async (actor, name) => {
      assertAdmin(actor);
      const project = await projectForActor(db, actor, name);
      return projectForgeView(project, { dataDir: kernel.config.dataDir, jail: kernel.config.jail });
    },
    setForgeToken: async (actor, name, token) => {
      assertAdmin(actor);
      const project = name === null ? null : await projectForActor(db, actor, name);
      const file = writeForgeToken(kernel.config.dataDir, project?.name ?? null, token);
      await redrawLaneCards(kernel, project?.id ?? null);
      return file;
    },
    removeForgeToken: async (actor, name) => {
      assertAdmin(actor);
      const project = name === null ? null : await projectForActor(db, actor, name);
      const file = forgeTokenPath(kernel.config.dataDir, project?.name ?? null);
      const removed = removeForgeToken(kernel.config.dataDir, project?.name ?? null);
      await redrawLaneCards(kernel, project?.id ?? null);
      return { file, removed };
    },
    move: (actor, name, to) => moveProject(db, actor, name, to),
    hostDataDir: (host) => hostDataDir(db, host, kernel.config.dataDir),
    copyCodexSessions,
    channelsOpenToMembers: () => channelsOpenToMembers(db),
    promptTarget: (actor, text, where) => promptTarget(db, actor, text, where),
    layoutProblems: () => installLayoutProblems(db, roots),
    assertAdmin,
  };
}
