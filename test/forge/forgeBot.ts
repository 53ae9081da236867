import path from "node:path";
import fs from "node:fs";
import { createEngineApi } from "../../src/engine/api/index.js";
import type { Actor } from "../../src/engine/api/model.js";
import type { Logger } from "../../src/logger.js";
import { ForgeDeliveries } from "../../src/forge/store/deliveries.js";
import { ForgeLinks } from "../../src/forge/store/links.js";
import type { ForgeName } from "../../src/forge/store/schema.js";
import { startFakeGitHub } from "../support/fakeGitHub.js";
import { type FakeGitLab, startFakeGitLab } from "../support/fakeGitLab.js";
import type { FakeModelOptions } from "../support/fakeModel.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";

/** The repository the demo project is on the fake GitHub, its token and its webhook secret. */
export const REPO = "acme/widgets";
export const TOKEN = "ghp_forgetesttoken0001";
export const HOOK_SECRET = "hook-secret-for-tests-0001";
export const GITLAB_TOKEN = "glpat-forge-test-0001";
export const GITLAB_HOOK_SECRET = "gitlab-secret-for-tests-1";
export const ADMIN_ACTOR: Actor = { userId: ADMIN, isAdmin: true };

/**
 * The whole bot (real Bolt app over HTTP, notifier, real workers and Codex, fake Slack and model)
 * with its demo project on a fake GitHub Enterprise (`acme/widgets`), a token and a webhook secret.
 */
export async function forgeBot(
  opts: { model?: FakeModelOptions; env?: Record<string, string>; logger?: Logger } = {},
) {
  const b = await slackBot({
    model: opts.model,
    logger: opts.logger,
    env: { CODEXPI_LOCALE: "en", ...opts.env },
  });
  const github = await startFakeGitHub({ token: TOKEN, repos: [REPO], enterprise: true });
  const api = createEngineApi(b.bot.engine);
  await api.projects.setForge(ADMIN_ACTOR, "demo", {
    forge: "github",
    forgeUrl: github.apiUrl,
    forgeRepo: REPO,
  });
  await api.projects.setForgeToken(ADMIN_ACTOR, "demo", TOKEN);
  await api.forge.setWebhookSecret(ADMIN_ACTOR, "demo", HOOK_SECRET);
  const deliveries = new ForgeDeliveries(b.db);
  const closing: FakeGitLab[] = [];
  return {
    ...b,
    github,
    api,
    deliveries,
    /** A directory beside the demo project's, for another project. */
    siblingDir(name: string) {
      const dir = path.join(path.dirname(b.project.path), name);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    /** Waits until a delivery is handled; answers its outcome. */
    outcome: (forge: ForgeName, id: string) =>
      eventually(() => deliveries.outcome(forge, id), 30_000, `delivery ${id} handled`),
    /**
     * A second project `lab` (direct mode, OWNER's) on a fake GitLab's `group/app`, with its token
     * and webhook secret (GITLAB_HOOK_SECRET); the fake is closed with the bot.
     */
    async labOnGitLab(): Promise<{ gitlab: FakeGitLab; projectId: string }> {
      const gitlab = await startFakeGitLab({ token: GITLAB_TOKEN, projects: ["group/app"] });
      closing.push(gitlab);
      const dir = path.join(path.dirname(b.project.path), "lab");
      fs.mkdirSync(dir, { recursive: true });
      await api.projects.add(ADMIN_ACTOR, {
        name: "lab",
        path: dir,
        ownerId: OWNER,
        workspaceMode: "direct",
      });
      await api.projects.setForge(ADMIN_ACTOR, "lab", {
        forge: "gitlab",
        forgeUrl: gitlab.apiUrl,
        forgeRepo: "group/app",
      });
      await api.projects.setForgeToken(ADMIN_ACTOR, "lab", GITLAB_TOKEN);
      await api.forge.setWebhookSecret(ADMIN_ACTOR, "lab", GITLAB_HOOK_SECRET);
      return { gitlab, projectId: (await api.projects.forActor(ADMIN_ACTOR, "lab")).id };
    },
    queued: async () => (await b.db.selectFrom("prompt_queue").select("id").execute()).length,
    /** Links forge account `login` to Slack member `userId` (as an admin would). */
    link: (forge: ForgeName, login: string, userId: string) =>
      new ForgeLinks(b.db).link({ forge, login, account_id: null, user_id: userId }, "test", Date.now()),
    async close() {
      for (const f of closing) await f.close();
      await github.close();
      await b.close();
    },
  };
}
