import type { Kernel } from "../kernel.js";
import { assertAdmin, getProject, projectForActor, type Actor } from "../projects/index.js";
import {
  fetchProjectBranch,
  fetchProjectPullRequest,
  type ForgeAccess,
  forgeAccess,
  type CiRun,
  type DiscussionTarget,
  failedJob,
  type FailedJob,
  openPullRequestsOf,
  postForgeComment,
  projectForgeTarget,
  pullRequestHead,
  type PullRequestHead,
  type ListingPoll,
  type PollCursor,
  type PolledComment,
  pollComments,
  hasWebhookSecret,
  readForgeToken,
  removeWebhookSecret,
  verifyWebhook,
  writeWebhookSecret,
} from "../forge/index.js";

export type { CiRun, FailedJob, ForgeAccess, PolledComment };

/** A forge as a project names it. */
type ForgeKind = "github" | "gitlab";

/** A project a forge repository's deliveries may be for. */
export interface ForgeProjectRef {
  id: string;
  name: string;
  workspaceMode: string;
}

/**
 * What the forge front end (src/forge, issue 33) asks of the engine: which projects a repository
 * is, whether a delivery is genuine (the secret never leaves the engine), a comment on a pull
 * request or issue, a pull request's head. The settings are admins'.
 */
export interface ForgeApi {
  /** The projects whose `--forge-repo` is `repo` on `forge` (a null forge setting matches either). */
  projectsOfRepo(forge: ForgeKind, repo: string): Promise<ForgeProjectRef[]>;
  /** A project by id (the journal keeps ids: a renamed project still receives its deliveries). */
  project(projectId: string): Promise<ForgeProjectRef>;
  /** Whether a delivery's signature (GitHub) or token (GitLab) is the project's webhook secret. */
  verify(projectId: string, forge: ForgeKind, rawBody: Buffer, header: string): Promise<boolean>;
  /** Stores a project's webhook secret (admins); answers the file. */
  setWebhookSecret(actor: Actor, name: string, secret: string): Promise<string>;
  /** Removes a project's webhook secret (admins); answers whether there was one. */
  removeWebhookSecret(actor: Actor, name: string): Promise<boolean>;
  /** Posts a comment on a project's pull request or issue with the project's token. */
  comment(projectId: string, on: DiscussionTarget, body: string): Promise<{ url: string | null }>;
  /** What a project's forge front end lacks: its repository setting, its webhook secret, a token. */
  missing(
    projectId: string,
  ): Promise<{ name: string; missing: Array<"repository" | "webhook_secret" | "token"> }>;
  /** A project's pull request's head branch, and whether it comes from a fork. */
  pullRequestHead(projectId: string, number: number): Promise<PullRequestHead>;
  /**
   * Brings a pull request's head branch from the project's remote into its checkout (never forced;
   * codexpi's own repository and token, as a push), so that a lane can start from it.
   */
  fetchBranch(projectId: string, branch: string): Promise<"created" | "updated" | "kept">;
  /**
   * The open pull requests whose head is `branch` of the project's repository (not a fork's): what
   * a failed CI run that names none ran for (GitLab's branch pipelines).
   */
  openPullRequestsOf(projectId: string, branch: string): Promise<number[]>;
  /**
   * Brings a fork's pull (merge) request's head from the base repository's own ref of it into a
   * branch of codexpi's own (`codexpi-fork/pr-N`), and answers that branch: a lane may start from
   * it, and is then never pushed.
   */
  fetchPullRequest(projectId: string, number: number): Promise<string>;
  /**
   * What the project's forge says of its token (scopes) and of the webhook calling codexpi (its
   * last delivery), for `doctor`; reads only, never throws for what the forge answers.
   */
  access(projectId: string): Promise<ForgeAccess & { forge: ForgeKind; repo: string }>;
  /** A CI run's first failed job and its log's last `tail` characters (null when no job failed). */
  failedJob(projectId: string, run: CiRun, tail: number): Promise<FailedJob | null>;
  /**
   * A polled project's new comments on its forge (installs without a public URL), and the issues
   * given `label`, per listing, from each listing's cursor, or from `fromMs` (polling's start)
   * for one never read.
   */
  poll(
    projectId: string,
    cursors: Readonly<Record<string, PollCursor>>,
    fromMs: number,
    label: string,
  ): Promise<ListingPoll[]>;
}

export function forgeApi(kernel: Kernel): ForgeApi {
  const { db } = kernel;
  const host = () => ({ dataDir: kernel.config.dataDir, jail: kernel.config.jail });
  return {
    async projectsOfRepo(forge, repo) {
      const rows = await db
        .selectFrom("projects")
        .select(["id", "name", "workspace_mode", "forge", "forge_repo"])
        .where("forge_repo", "is not", null)
        .execute();
      return rows
        .filter(
          (p) =>
            (p.forge === null || p.forge === forge) && p.forge_repo?.toLowerCase() === repo.toLowerCase(),
        )
        .map((p) => ({ id: p.id, name: p.name, workspaceMode: p.workspace_mode }));
    },
    async project(projectId) {
      const p = await getProject(db, projectId);
      return { id: p.id, name: p.name, workspaceMode: p.workspace_mode };
    },
    async verify(projectId, forge, rawBody, header) {
      const project = await getProject(db, projectId);
      return verifyWebhook(kernel.config.dataDir, project.name, forge, rawBody, header);
    },
    async setWebhookSecret(actor, name, secret) {
      assertAdmin(actor);
      const project = await projectForActor(db, actor, name);
      return writeWebhookSecret(kernel.config.dataDir, project.name, secret);
    },
    async removeWebhookSecret(actor, name) {
      assertAdmin(actor);
      const project = await projectForActor(db, actor, name);
      return removeWebhookSecret(kernel.config.dataDir, project.name);
    },
    async comment(projectId, on, body) {
      const project = await getProject(db, projectId);
      return postForgeComment(await projectForgeTarget(project, host()), on, body);
    },
    async missing(projectId) {
      const project = await getProject(db, projectId);
      const missing: Array<"repository" | "webhook_secret" | "token"> = [];
      if (!project.forge_repo) missing.push("repository");
      if (!hasWebhookSecret(kernel.config.dataDir, project.name)) missing.push("webhook_secret");
      if (!readForgeToken(kernel.config.dataDir, project.name)) missing.push("token");
      return { name: project.name, missing };
    },
    async pullRequestHead(projectId, number) {
      const project = await getProject(db, projectId);
      return pullRequestHead(await projectForgeTarget(project, host()), number);
    },
    async fetchBranch(projectId, branch) {
      return fetchProjectBranch(await getProject(db, projectId), branch, host());
    },
    async openPullRequestsOf(projectId, branch) {
      const project = await getProject(db, projectId);
      return openPullRequestsOf(await projectForgeTarget(project, host()), branch);
    },
    async access(projectId) {
      const target = await projectForgeTarget(await getProject(db, projectId), host());
      return { ...(await forgeAccess(target)), forge: target.forge, repo: target.forgeRepo };
    },
    async fetchPullRequest(projectId, number) {
      return fetchProjectPullRequest(await getProject(db, projectId), number, host());
    },
    async failedJob(projectId, run, tail) {
      const project = await getProject(db, projectId);
      return failedJob(await projectForgeTarget(project, host()), run, tail);
    },
    async poll(projectId, cursors, fromMs, label) {
      const project = await getProject(db, projectId);
      return pollComments(await projectForgeTarget(project, host()), cursors, fromMs, label);
    },
  };
}
