import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineApi } from "../../src/engine/api/index.js";
import { addProject } from "../../src/engine/projects/index.js";
import { writeForgeToken } from "../../src/engine/forge/index.js";
import { laneOf } from "../../src/engine/lanes/index.js";
import { ACTIONS } from "../../src/views/ids.js";
import { scriptedRespond } from "../support/scriptedModel.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fakeGitHub.js";
import { startFakeGitLab, type FakeGitLab } from "../support/fakeGitLab.js";
import { buttonOf, cardsOf as cardsOfThread } from "../support/laneCards.js";
import { ADMIN, eventually, OTHER, OWNER, slackBot } from "../support/slackBot.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

// Issue 18 end to end through the real bot (signed HTTP, notifier, ticker), real `codexpi worker`
// processes, the real Codex binary against the fake model, real git with a bare repository as the
// project's remote, and a fake GitHub on 127.0.0.1 checking GitHub's documented request shape.
// Two people prompt one branch-mode project at once; each agent rewrites the same line of app.txt
// in its own lane, so the second merge conflicts and the agent is asked to resolve it.

const TOKEN = "ghp_lanecardtesttoken0123456789abcdefABCD";

/** What each agent runs (in its lane), keyed by a marker in its prompt; the resolution's too. */
const SCRIPTS: Record<string, string> = {
  "CARD-ALPHA": "printf 'alpha\\n' > app.txt; echo a > alpha.txt; sleep 2",
  "CARD-BRAVO": "printf 'bravo\\n' > app.txt; echo b > bravo.txt; sleep 2",
  "CARD-GAMMA": "echo c > gamma.txt",
  // The follow-up "Ask the agent to merge" sends names origin/main: resolve keeping both lines.
  "origin/main": "printf 'alpha\\nbravo\\n' > app.txt",
};

const respond = scriptedRespond(SCRIPTS);

type Bot = Awaited<ReturnType<typeof slackBot>>;

const cardsOf = (bot: Bot, conversationId: string) => cardsOfThread(bot.slack, conversationId);

describe("a lane's card through the real bot", () => {
  let bot: Bot | undefined;
  let github: FakeGitHub | undefined;
  let gitlab: FakeGitLab | undefined;
  afterEach(async () => {
    await bot?.close();
    await github?.close();
    await gitlab?.close();
    bot = undefined;
    github = undefined;
    gitlab = undefined;
  });

  /** A branch-mode project `repo` on `main` (app.txt) whose remote is a bare repository. */
  async function repoProject(b: Bot): Promise<{ root: string; remote: string }> {
    isolateGit();
    const root = path.join(path.dirname(b.config.dataDir), "repo");
    const remote = path.join(path.dirname(b.config.dataDir), "remote.git");
    fs.mkdirSync(root);
    await git(root, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(root, "app.txt"), "base\n");
    await git(root, "add", "app.txt");
    await git(root, "commit", "-q", "-m", "Base");
    await git(path.dirname(remote), "init", "-q", "--bare", remote);
    await git(root, "remote", "add", "origin", remote);
    await addProject(
      b.db,
      { now: () => Date.now() },
      { name: "repo", path: root, ownerId: OWNER, workspaceMode: "branch" },
    );
    return { root, remote };
  }

  it("S-CARD-10: two people's agents run side by side in their lanes; Merge, the conflict and the agent's resolution, Push to the bare remote, the pull request, Discard; a non-owner's Merge changes nothing", async () => {
    github = await startFakeGitHub({ token: TOKEN, repos: ["acme/repo"], enterprise: true });
    bot = await slackBot({ model: { respond } });
    const b = bot;
    const { root, remote } = await repoProject(b);
    await createEngineApi(b.bot.engine).projects.setForge({ userId: ADMIN, isAdmin: true }, "repo", {
      forge: "github",
      forgeUrl: github.apiUrl,
      forgeRepo: "acme/repo",
    });
    writeForgeToken(b.config.dataDir, "repo", TOKEN);

    // Two people at once: the owner and an admin.
    await b.command("ask repo CARD-ALPHA write alpha", OWNER);
    await b.command("ask repo CARD-BRAVO write bravo", ADMIN);
    const conversations = await eventually(async () => {
      const rows = await b.db.selectFrom("conversations").select(["id", "user_id"]).execute();
      return rows.length === 2 ? rows : null;
    });
    const alpha = conversations.find((c) => c.user_id === OWNER)!.id;
    const bravo = conversations.find((c) => c.user_id === ADMIN)!.id;
    const cardA = await eventually(() => cardsOf(b, alpha)[0], 90_000, "alpha's card");
    const cardB = await eventually(() => cardsOf(b, bravo)[0], 90_000, "bravo's card");
    for (const card of [cardA, cardB]) {
      expect(buttonOf(card, ACTIONS.laneMerge)).toBeDefined();
      expect(card.text + JSON.stringify(card.blocks)).toContain("app.txt");
    }
    // Both agents ran at the same time: each turn slept 2 s, and their runs overlap.
    const runs = await b.db.selectFrom("prompt_queue").select(["started_at", "finished_at"]).execute();
    const [r1, r2] = runs.map((r) => ({ start: Number(r.started_at), end: Number(r.finished_at) }));
    expect(Math.min(r1!.end, r2!.end) - Math.max(r1!.start, r2!.start)).toBeGreaterThan(500);

    // A member who is neither the owner nor an admin: Merge changes nothing.
    const head = await git(root, "rev-parse", "HEAD");
    const refused = await b.click(ACTIONS.laneMerge, alpha, cardA.ts, OTHER);
    expect((await b.response(refused.responseId)).text).toBeTruthy();
    expect(await git(root, "rev-parse", "HEAD")).toBe(head);
    expect((await laneOf(b.db, alpha))?.status).toBe("active");

    // The owner merges alpha: the project's main has its change, the card says merged.
    await b.click(ACTIONS.laneMerge, alpha, cardA.ts, OWNER);
    await eventually(async () => (await laneOf(b.db, alpha))?.status === "merged", 30_000, "alpha merged");
    expect(fs.readFileSync(path.join(root, "app.txt"), "utf8")).toBe("alpha\n");
    expect(fs.existsSync(path.join(root, "alpha.txt"))).toBe(true);
    await eventually(
      () => {
        const m = b.slack.messages().find((x) => x.ts === cardA.ts);
        return m && m.updates > 0 && !buttonOf(m, ACTIONS.laneMerge);
      },
      15_000,
      "alpha's card redrawn as merged",
    );

    // Bravo's Merge (the admin's) conflicts on app.txt: nothing changes, the card names the file.
    const before = await git(root, "rev-parse", "HEAD");
    const conflicted = await b.click(ACTIONS.laneMerge, bravo, cardB.ts, ADMIN);
    expect((await b.response(conflicted.responseId)).text).toMatch(/1/);
    expect(await git(root, "rev-parse", "HEAD")).toBe(before);
    expect(await git(root, "status", "--porcelain")).toBe("");
    const askCard = await eventually(
      () => {
        const m = b.slack.messages().find((x) => x.ts === cardB.ts);
        return m && buttonOf(m, ACTIONS.laneAskMerge) ? m : null;
      },
      15_000,
      "bravo's card with Ask the agent to merge",
    );
    expect(JSON.stringify(askCard.blocks)).toContain("app.txt");

    // Push creates the branch on the bare remote; Open pull request posts the documented request.
    await b.click(ACTIONS.lanePush, bravo, cardB.ts, ADMIN);
    const branch = (await laneOf(b.db, bravo))!.branch;
    await eventually(
      async () => (await git(remote, "branch", "--list", branch)).includes(branch),
      30_000,
      "pushed",
    );
    await b.click(ACTIONS.lanePullRequest, bravo, cardB.ts, ADMIN);
    const pull = await eventually(() => github!.pulls("acme/repo")[0], 30_000, "pull request");
    expect(pull).toMatchObject({ head: branch, base: "main", title: expect.any(String) });
    await eventually(
      () => {
        const m = b.slack.messages().find((x) => x.ts === cardB.ts);
        return m && JSON.stringify(m.blocks).includes(pull.html_url);
      },
      15_000,
      "the card shows the pull request's link",
    );
    expect(JSON.stringify(b.slack.calls)).not.toContain(TOKEN);

    // Ask the agent to merge main: it resolves app.txt in its lane; a new card; the admin merges.
    await b.click(ACTIONS.laneAskMerge, bravo, cardB.ts, ADMIN);
    const resolved = await eventually(
      () => cardsOf(b, bravo).find((m) => m.ts !== cardB.ts),
      90_000,
      "new card",
    );
    await b.click(ACTIONS.laneMerge, bravo, resolved.ts, ADMIN);
    await eventually(async () => (await laneOf(b.db, bravo))?.status === "merged", 30_000, "bravo merged");
    expect(fs.readFileSync(path.join(root, "app.txt"), "utf8")).toBe("alpha\nbravo\n");

    // Discard removes a third lane; its branch reaches neither the project nor the remote.
    await b.command("ask repo CARD-GAMMA write gamma", OWNER);
    const gamma = await eventually(async () => {
      const rows = await b.db
        .selectFrom("conversations")
        .select("id")
        .where("id", "not in", [alpha, bravo])
        .execute();
      return rows[0]?.id;
    });
    const cardC = await eventually(() => cardsOf(b, gamma)[0], 90_000, "gamma's card");
    const lanePath = (await laneOf(b.db, gamma))!.path;
    await b.click(ACTIONS.laneDiscard, gamma, cardC.ts, OWNER);
    await eventually(async () => (await laneOf(b.db, gamma))?.status === "discarded", 30_000, "discarded");
    expect(fs.existsSync(lanePath)).toBe(false);
    expect(fs.existsSync(path.join(root, "gamma.txt"))).toBe(false);
  }, 240_000);

  it("S-CARD-11: Open pull request on a self-hosted GitLab: the documented merge request (nested group), the card shows its link, the token in no Slack call", async () => {
    gitlab = await startFakeGitLab({ token: TOKEN, projects: ["acme/tools/repo"] });
    bot = await slackBot({ model: { respond } });
    const b = bot;
    await repoProject(b);
    await createEngineApi(b.bot.engine).projects.setForge({ userId: ADMIN, isAdmin: true }, "repo", {
      forge: "gitlab",
      forgeUrl: gitlab.apiUrl,
      forgeRepo: "acme/tools/repo",
    });
    writeForgeToken(b.config.dataDir, "repo", TOKEN);
    await b.command("ask repo CARD-GAMMA write gamma", OWNER);
    const id = await eventually(
      async () => (await b.db.selectFrom("conversations").select("id").executeTakeFirst())?.id,
    );
    const card = await eventually(() => cardsOf(b, id)[0], 90_000, "the card");
    await b.click(ACTIONS.lanePullRequest, id, card.ts, OWNER);
    const mr = await eventually(() => gitlab!.mergeRequests("acme/tools/repo")[0], 30_000, "merge request");
    const branch = (await laneOf(b.db, id))!.branch;
    expect(mr).toMatchObject({ source_branch: branch, target_branch: "main" });
    await eventually(
      () => {
        const m = b.slack.messages().find((x) => x.ts === card.ts);
        return m && JSON.stringify(m.blocks).includes(mr.web_url);
      },
      15_000,
      "the card shows the merge request's link",
    );
    expect(JSON.stringify(b.slack.calls)).not.toContain(TOKEN);
  }, 180_000);
});
