import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addProject, getProject } from "../../src/engine/projects/index.js";
import { createEngineApi } from "../../src/engine/api/index.js";
import { CLI_ACTOR } from "../../src/engine/api/model.js";
import { forgeTokenPath } from "../../src/engine/forge/index.js";
import { laneOf } from "../../src/engine/lanes/index.js";
import { ACTIONS } from "../../src/views/ids.js";
import { scriptedRespond } from "../support/scriptedModel.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fakeGitHub.js";
import { buttonOf, cardsOf, messageAt } from "../support/laneCards.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

// Issue 32, item 6, through the real bot (signed HTTP, notifier, ticker), real workers and Codex
// against the fake model, real git (a bare repository on disk as the remote) and the fake GitHub:
// the lane card offers Push and Open pull request only when they can work, says what is missing
// otherwise, answers a stale button with that instead of git's words, and tells a fast-forward
// from a merge commit; admins read and change the forge settings with `/codex project forge`.
// The bot speaks French (the default locale), as in the other bot tests.

const TOKEN = "ghp_laneoffersTESTtoken0123456789abcdefXY";

const SCRIPTS: Record<string, string> = {
  "OFFER-ONE": "echo one > one.txt",
  "OFFER-TWO": "echo two > two.txt",
  "MERGE-FF": "echo ff > ff.txt; sleep 1",
  "MERGE-MC": "echo mc > mc.txt; sleep 1",
};

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** A branch-mode project `repo` on `main`, without a remote (`withRemote` adds a bare one as origin). */
async function repoProject(b: Bot, withRemote: boolean): Promise<{ root: string; remote: string }> {
  isolateGit();
  const root = path.join(path.dirname(b.config.dataDir), "repo");
  const remote = path.join(path.dirname(b.config.dataDir), "remote.git");
  fs.mkdirSync(root);
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(root, "app.txt"), "base\n");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  await git(path.dirname(remote), "init", "-q", "--bare", remote);
  if (withRemote) await git(root, "remote", "add", "origin", remote);
  await addProject(
    b.db,
    { now: () => Date.now() },
    { name: "repo", path: root, ownerId: OWNER, workspaceMode: "branch" },
  );
  return { root, remote };
}

/** Asks `repo` as `user` and waits for the new conversation's first card. */
async function askForCard(b: Bot, prompt: string, user = OWNER) {
  const before = new Set((await b.db.selectFrom("conversations").select("id").execute()).map((r) => r.id));
  await b.command(`ask repo ${prompt}`, user);
  const id = await eventually(async () => {
    const rows = await b.db.selectFrom("conversations").select("id").execute();
    return rows.find((r) => !before.has(r.id))?.id;
  });
  const card = await eventually(() => cardsOf(b.slack, id)[0], 90_000, `the card of ${prompt}`);
  return { id, card };
}

const textOf = (m: { text?: string; blocks?: unknown }) =>
  `${m.text ?? ""}\n${JSON.stringify(m.blocks ?? [])}`;

describe("the lane card offers only what can work, through the real bot", () => {
  let bot: Bot | undefined;
  let github: FakeGitHub | undefined;
  afterEach(async () => {
    await bot?.close();
    await github?.close();
    bot = undefined;
    github = undefined;
  });

  it("S-CARD-12, S-CARD-13, S-CARD-15: no remote, no Push and no pull request but a hint; a stale button says what is missing and pushes nothing; forge settings read and changed by an admin, refused to others, the token never from Slack; with a remote Push works, and with a token Open pull request appears", async () => {
    github = await startFakeGitHub({ token: TOKEN, repos: ["acme/repo"], enterprise: true });
    bot = await slackBot({ model: { respond: scriptedRespond(SCRIPTS) } });
    const b = bot;
    const { root, remote } = await repoProject(b, false);

    // No remote: Merge and Discard only, and the hint saying what an admin does.
    const one = await askForCard(b, "OFFER-ONE write one");
    expect(buttonOf(one.card, ACTIONS.laneMerge)).toBeDefined();
    expect(buttonOf(one.card, ACTIONS.laneDiscard)).toBeDefined();
    expect(buttonOf(one.card, ACTIONS.lanePush)).toBeUndefined();
    expect(buttonOf(one.card, ACTIONS.lanePullRequest)).toBeUndefined();
    expect(textOf(one.card)).toContain("le checkout de `repo` ne nomme aucun remote `origin`");
    expect(textOf(one.card)).toContain("/codex project forge repo --kind github|gitlab --repo");

    // A stale button pressed anyway: what is missing, in the catalog's words, and nothing pushed.
    for (const action of [ACTIONS.lanePush, ACTIONS.lanePullRequest]) {
      const click = await b.click(action, one.id, one.card.ts, OWNER);
      const answer = (await b.response(click.responseId)).text ?? "";
      expect(answer).toContain("ne nomme aucun remote `origin`");
      expect(answer).not.toMatch(/n’existe pas|does not exist|fatal/);
    }
    expect((await laneOf(b.db, one.id))?.pushed_remote).toBeNull();
    expect(github.pulls("acme/repo")).toEqual([]);

    // Forge settings from Slack: refused to the project's owner (not an admin), read and changed
    // by an admin; a token given in Slack is refused and not stored.
    for (const text of ["project forge repo", "project forge repo --kind github --repo acme/repo"]) {
      const refused = await b.command(text, OWNER);
      expect((await b.response(refused.responseId)).text).toMatch(/réservé aux admins/i);
    }
    expect((await getProject(b.db, (await laneOf(b.db, one.id))!.project_id)).forge).toBeNull();
    const tokenTry = await b.command(`project forge repo --token ${TOKEN}`, ADMIN);
    expect((await b.response(tokenTry.responseId)).text).toContain("n’est plus secret");
    expect(fs.existsSync(forgeTokenPath(b.config.dataDir, "repo"))).toBe(false);

    const shown = await b.response((await b.command("project forge repo", ADMIN)).responseId);
    expect(textOf(shown)).toContain("_aucun dans le checkout du projet_");
    expect(textOf(shown)).toContain("« Pousser la branche » : non");

    // The operator adds the remote on the host; the admin names the forge from Slack.
    await git(root, "remote", "add", "origin", remote);
    const set = await b.command(
      `project forge repo --kind github --url <${github.apiUrl}> --repo acme/repo`,
      ADMIN,
    );
    const changed = textOf(await b.response(set.responseId));
    expect(changed).toContain("Réglages de forge de `repo` modifiés");
    expect(changed).toContain("`acme/repo` (réglé)");
    expect(changed).toContain("Jeton : _aucun enregistré_");
    expect(changed).toContain("« Pousser la branche » : oui · « Ouvrir une pull request » : non");
    expect(changed).toContain("codexpi project credential repo --forge-token -");
    const project = await getProject(b.db, (await laneOf(b.db, one.id))!.project_id);
    expect(project).toMatchObject({ forge: "github", forge_repo: "acme/repo", forge_url: github.apiUrl });
    // The open card is redrawn with what works now: Push, and the token's hint in place of the PR.
    const oneRedrawn = await eventually(
      () => {
        const m = messageAt(b.slack, one.card.ts);
        return m && buttonOf(m, ACTIONS.lanePush) ? m : null;
      },
      15_000,
      "the first card redrawn with Push",
    );
    expect(buttonOf(oneRedrawn, ACTIONS.lanePullRequest)).toBeUndefined();
    expect(textOf(oneRedrawn)).toContain("aucun jeton de forge n’est enregistré pour `repo`");

    // A remote and a forge, no token: Push (and it works: the positive control), no pull request.
    const two = await askForCard(b, "OFFER-TWO write two");
    expect(buttonOf(two.card, ACTIONS.lanePush)).toBeDefined();
    expect(buttonOf(two.card, ACTIONS.lanePullRequest)).toBeUndefined();
    expect(textOf(two.card)).toContain("aucun jeton de forge n’est enregistré pour `repo`");
    const stalePr = await b.click(ACTIONS.lanePullRequest, two.id, two.card.ts, OWNER);
    expect((await b.response(stalePr.responseId)).text).toMatch(/aucun jeton de forge pour le projet repo/i);
    expect((await laneOf(b.db, two.id))?.pushed_remote).toBeNull(); // refused before any push

    // The token is stored on the host (`codexpi project credential`'s use case): the open cards are
    // redrawn offering Open pull request; Push reaches the bare remote (the positive control).
    await createEngineApi(b.bot.engine).projects.setForgeToken(CLI_ACTOR, "repo", TOKEN);
    await b.click(ACTIONS.lanePush, two.id, two.card.ts, OWNER);
    const branch = (await laneOf(b.db, two.id))!.branch;
    await eventually(
      async () => (await git(remote, "branch", "--list", branch)).includes(branch),
      30_000,
      "pushed to the bare remote",
    );
    for (const card of [one.card, two.card]) {
      const redrawn = await eventually(
        () => {
          const m = messageAt(b.slack, card.ts);
          return m && buttonOf(m, ACTIONS.lanePullRequest) ? m : null;
        },
        15_000,
        "a card redrawn with Open pull request",
      );
      expect(textOf(redrawn)).not.toContain("aucun jeton");
    }
    await b.click(ACTIONS.lanePullRequest, two.id, two.card.ts, OWNER);
    await eventually(() => github!.pulls("acme/repo")[0], 30_000, "the pull request");
    const withToken = await b.response((await b.command("project forge repo", ADMIN)).responseId);
    expect(textOf(withToken)).toContain("Jeton : enregistré pour ce projet");
    expect(JSON.stringify(b.slack.calls) + JSON.stringify(b.slack.responses)).not.toContain(TOKEN.slice(4));
    // Redraws edited the cards in place: one card per thread.
    expect(cardsOf(b.slack, one.id)).toHaveLength(1);
    expect(cardsOf(b.slack, two.id)).toHaveLength(1);
  }, 240_000);

  it('S-CARD-14: a merge that fast-forwards reads "Fast-forwarded"; one after the base moved reads as a merge commit', async () => {
    bot = await slackBot({ model: { respond: scriptedRespond(SCRIPTS) } });
    const b = bot;
    const { root } = await repoProject(b, true);
    b.slack.setUser(OWNER, { locale: "en-US" });
    const ff = await askForCard(b, "MERGE-FF write ff");
    const mc = await askForCard(b, "MERGE-MC write mc");

    await b.click(ACTIONS.laneMerge, ff.id, ff.card.ts, OWNER);
    await eventually(async () => (await laneOf(b.db, ff.id))?.status === "merged", 30_000, "ff merged");
    const ffCard = await eventually(
      () => {
        const m = messageAt(b.slack, ff.card.ts);
        return m && !buttonOf(m, ACTIONS.laneMerge) ? m : null;
      },
      15_000,
      "the first card redrawn",
    );
    // main now is the lane's own head: one parent, no merge commit.
    expect((await git(root, "rev-list", "--parents", "-n", "1", "HEAD")).split(" ")).toHaveLength(2);
    expect(textOf(ffCard)).toContain("Fast-forwarded `main` to");
    expect(textOf(ffCard)).not.toContain("merge commit `");

    // Control: the base moved since the second lane started, so its merge makes a merge commit.
    await b.click(ACTIONS.laneMerge, mc.id, mc.card.ts, OWNER);
    await eventually(async () => (await laneOf(b.db, mc.id))?.status === "merged", 30_000, "mc merged");
    const mcCard = await eventually(
      () => {
        const m = messageAt(b.slack, mc.card.ts);
        return m && !buttonOf(m, ACTIONS.laneMerge) ? m : null;
      },
      15_000,
      "the second card redrawn",
    );
    expect((await git(root, "rev-list", "--parents", "-n", "1", "HEAD")).split(" ")).toHaveLength(3);
    expect(textOf(mcCard)).toContain("merge commit `");
    expect(textOf(mcCard)).not.toMatch(/fast-forward/i);
    expect(await b.db.selectFrom("lanes").select("merged_how").orderBy("merged_how").execute()).toEqual([
      { merged_how: "fast-forward" },
      { merged_how: "merge-commit" },
    ]);
  }, 240_000);
});
