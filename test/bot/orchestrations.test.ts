import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestration } from "../../src/engine/orchestrations/index.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";
import { OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

type Bot = Awaited<ReturnType<typeof slackBot>>;
type Button = { type: string; action_id: string; value?: string };

/** The buttons of a message, by action id. */
const buttonsOf = (blocks: unknown[] | undefined): Map<string, Button> =>
  new Map(
    ((blocks ?? []) as Array<{ elements?: Button[] }>)
      .flatMap((b) => b.elements ?? [])
      .filter((e) => e.type === "button")
      .map((e) => [e.action_id, e]),
  );

const FORM = (tests: string) => ({
  "orch.create.name": { "orch.create.name.value": "Salutation" },
  "orch.create.request": { "orch.create.request.value": "Écrire bonjour dans hello.txt." },
  "orch.create.criteria": {
    "orch.create.criteria.value": "hello.txt contient bonjour\nrien d’autre ne change",
  },
  "orch.create.tests": { "orch.create.tests.value": tests },
});

// The whole bot (Bolt over signed HTTP, notifier, tick, real workers and Codex binary against the
// fake model) driving an orchestration on a real git repository, from the command to the merge.
describe("orchestrations in Slack", () => {
  let bot: Bot;
  afterEach(async () => bot?.close());

  const message = (ts: string) => bot.slack.messages("C1").find((m) => m.ts === ts);
  const rootButtons = (ts: string) => buttonsOf(message(ts)?.blocks);
  const threadText = (ts: string) =>
    bot.slack
      .thread("C1", ts)
      .map((m) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`)
      .join("\n");
  const status = async (id: string) =>
    (
      await bot.db
        .selectFrom("orchestrations")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).status;
  const answer = async (click: Promise<{ responseId: string }>) =>
    (await bot.response((await click).responseId)).text ?? "";

  /** The bot, its project made a git repository (main, one commit) that requires merge confirmation. */
  async function botWithRepository(): Promise<string> {
    isolateGit();
    bot = await slackBot();
    const repo = bot.project.path;
    await git(repo, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(repo, "README.md"), "demo\n");
    await git(repo, "add", "README.md");
    await git(repo, "commit", "-q", "-m", "Base");
    await bot.db
      .updateTable("projects")
      .set({ merge_confirmation_required: 1 })
      .where("id", "=", bot.project.id)
      .execute();
    return repo;
  }

  const CHECK = "process.exit(require('fs').readFileSync('hello.txt','utf8').trim() === 'bonjour' ? 0 : 1)";
  const TESTS = `"${process.execPath}" -e "${CHECK}"`;

  it("/codex orchestrate → modal → draft in a thread → reject → approve → agent in a clone → verify → approve → confirmed merge", async () => {
    const repo = await botWithRepository();

    // A project the user may not see is "not found", exactly as a missing one, and no modal opens.
    const hidden = await answer(bot.command("orchestrate demo", OTHER));
    const missing = await answer(bot.command("orchestrate fantome", OWNER));
    // Both point to what exists (S-SEE-04), the same words either way.
    expect(hidden).toMatch(/^Projet introuvable : demo\. `\/codex projects`/);
    expect(missing).toBe(hidden.replace("demo", "fantome"));
    expect(bot.slack.views.filter((v) => v.method === "views.open")).toHaveLength(0);

    await bot.command("orchestrate demo");
    const modal = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.open"),
      10_000,
      "creation modal",
    );
    expect(modal.view.callback_id).toBe("orch.create");
    const metadata = modal.view.private_metadata as string;
    expect(JSON.parse(metadata)).toEqual({ projectId: bot.project.id, channelId: "C1" });

    const unclosed = await bot.submit("orch.create", FORM(`node -e "oops`), metadata);
    expect(unclosed.json).toMatchObject({
      response_action: "errors",
      errors: { "orch.create.tests": expect.stringContaining("Ligne 1") },
    });
    const created = await bot.submit("orch.create", FORM(TESTS), metadata);
    expect(created.status).toBe(200);
    expect(created.json).toBeUndefined(); // a plain ack closes the modal

    const o = await eventually(
      () => bot.db.selectFrom("orchestrations").selectAll().executeTakeFirst(),
      10_000,
      "orchestration",
    );
    expect(o).toMatchObject({ status: "DRAFT_REVIEW", owner_id: OWNER });
    // Where it lives in Slack: the bot's own address, recorded with the orchestration.
    expect(
      await bot.db
        .selectFrom("slack_addresses")
        .select("channel_id")
        .where("subject_kind", "=", "orchestration")
        .where("subject_id", "=", o.id)
        .executeTakeFirst(),
    ).toEqual({ channel_id: "C1" });
    expect(JSON.parse(o.tests)).toEqual([[process.execPath, "-e", CHECK]]); // an argv, never a shell line
    const root = await eventually(
      () =>
        bot.slack.messages("C1").find((m) => !m.thread_ts && buttonsOf(m.blocks).has("orch.draft.approve")),
      15_000,
      "thread root",
    );
    expect(rootButtons(root.ts).get("orch.draft.approve")?.value).toBe(`${o.id}|${o.draft_hash}`);
    await eventually(
      async () =>
        (
          await bot.db
            .selectFrom("slack_addresses")
            .select("thread_ts")
            .where("subject_kind", "=", "orchestration")
            .executeTakeFirst()
        )?.thread_ts === root.ts,
      5_000,
      "thread recorded",
    );
    await eventually(
      () => threadText(root.ts).includes("Brouillon v1 à relire"),
      10_000,
      "draft in the thread",
    );

    // Reject through the feedback modal: version 2, with the feedback, replaces the buttons' hash.
    await bot.click("orch.draft.reject", o.id, root.ts);
    const rejectModal = await eventually(
      () => bot.slack.views.filter((v) => v.method === "views.open")[1],
      10_000,
      "reject modal",
    );
    expect(rejectModal.view.callback_id).toBe("orch.reject");
    const empty = await bot.submit(
      "orch.reject",
      { "orch.feedback": { "orch.feedback.value": "  " } },
      rejectModal.view.private_metadata as string,
    );
    expect(empty.json).toMatchObject({
      response_action: "errors",
      errors: { "orch.feedback": expect.any(String) },
    });
    const rejected = await bot.submit(
      "orch.reject",
      { "orch.feedback": { "orch.feedback.value": "Préciser le contenu exact : bonjour." } },
      rejectModal.view.private_metadata as string,
    );
    expect(rejected.status).toBe(200);
    const v2 = await bot.db.selectFrom("orchestrations").selectAll().executeTakeFirstOrThrow();
    expect(v2.draft_version).toBe(2);
    await eventually(
      () => rootButtons(root.ts).get("orch.draft.approve")?.value === `${o.id}|${v2.draft_hash}`,
      10_000,
      "root showing version 2",
    );
    expect(JSON.stringify(message(root.ts)?.blocks)).toContain("brouillon v2");
    await eventually(
      () =>
        threadText(root.ts).includes("Brouillon v1 rejeté") &&
        threadText(root.ts).includes("Brouillon v2 à relire"),
      10_000,
      "rejection in the thread",
    );

    // A button of the stale version cannot act: the engine refuses, the clicker is told.
    expect(await answer(bot.click("orch.draft.approve", `${o.id}|${o.draft_hash}`, root.ts))).toContain(
      "Le brouillon a changé",
    );
    // Someone who may not act on it gets "not found".
    expect(await answer(bot.click("orch.draft.approve", `${o.id}|${v2.draft_hash}`, root.ts, OTHER))).toMatch(
      /introuvable/i,
    );

    // Approve: Codex writes the file in its clone (never the main checkout), then answers.
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "printf 'bonjour\\n' > hello.txt"] },
      { kind: "text", text: "J’ai écrit hello.txt." },
    );
    await bot.click("orch.draft.approve", rootButtons(root.ts).get("orch.draft.approve")!.value!, root.ts);
    await eventually(
      () => rootButtons(root.ts).has("orch.verify"),
      60_000,
      "AWAITING_VERIFICATION in the root",
    );
    expect(await status(o.id)).toBe("AWAITING_VERIFICATION");
    const worktree = (
      await bot.db.selectFrom("orchestrations").select("worktree_path").executeTakeFirstOrThrow()
    ).worktree_path!;
    expect(fs.readFileSync(path.join(worktree, "hello.txt"), "utf8")).toBe("bonjour\n");
    expect(fs.existsSync(path.join(repo, "hello.txt"))).toBe(false);
    await eventually(
      () => threadText(root.ts).includes("J’ai écrit hello.txt."),
      10_000,
      "the agent's answer in the thread",
    );

    // Verify (behind the ack): the results in the thread, USER_REVIEW with the verified revision.
    await bot.click("orch.verify", o.id, root.ts);
    await eventually(() => rootButtons(root.ts).has("orch.approve"), 30_000, "USER_REVIEW in the root");
    const reviewed = await bot.db.selectFrom("orchestrations").selectAll().executeTakeFirstOrThrow();
    expect(reviewed.status).toBe("USER_REVIEW");
    expect(rootButtons(root.ts).get("orch.approve")?.value).toBe(`${o.id}|${reviewed.verified_revision}`);
    await eventually(() => threadText(root.ts).includes("1 sur 1 réussis"), 10_000, "verification results");
    expect(threadText(root.ts)).toContain("code de sortie 0");

    const approve = rootButtons(root.ts).get("orch.approve")!.value!;
    expect(await answer(bot.click("orch.approve", approve, root.ts, OTHER))).toMatch(/introuvable/i);
    await bot.click("orch.approve", approve, root.ts);
    await eventually(
      () => rootButtons(root.ts).has("orch.merge.confirm"),
      15_000,
      "merge confirmation buttons",
    );
    expect(await status(o.id)).toBe("AWAITING_MERGE_CONFIRMATION");
    // A second click on the same approval is refused by the engine, not done twice.
    expect(await answer(bot.click("orch.approve", approve, root.ts))).toContain(
      "Impossible dans l’état actuel",
    );
    await eventually(
      () => threadText(root.ts).includes("Confirmation de fusion demandée"),
      10_000,
      "merge asked in the thread",
    );

    expect(fs.existsSync(path.join(repo, "hello.txt"))).toBe(false); // nothing merged before the confirmation
    expect(await answer(bot.click("orch.merge.confirm", o.id, root.ts, OTHER))).toMatch(/introuvable/i);
    await bot.click("orch.merge.confirm", o.id, root.ts);
    await eventually(async () => (await status(o.id)) === "MERGED", 15_000, "merged");
    expect(fs.readFileSync(path.join(repo, "hello.txt"), "utf8")).toBe("bonjour\n");
    const merged = await bot.db.selectFrom("orchestrations").selectAll().executeTakeFirstOrThrow();
    expect(await git(repo, "rev-parse", "HEAD")).toBe(merged.merged_revision);
    await eventually(
      () => rootButtons(root.ts).size === 0 && JSON.stringify(message(root.ts)?.blocks).includes("Fusionnée"),
      10_000,
      "root without buttons",
    );
    await eventually(
      () =>
        threadText(root.ts).includes(
          `Fusionnée dans \`main\` : révision \`${merged.merged_revision!.slice(0, 10)}\``,
        ),
      10_000,
      "merged line",
    );

    // The steps came in order, each once.
    const lines = bot.slack
      .thread("C1", root.ts)
      .slice(1)
      .map((m) => m.text);
    const order = [
      "Brouillon v1 à relire",
      "Brouillon v1 rejeté",
      "Brouillon v2 à relire",
      "Brouillon v2 approuvé",
      "L’agent démarre",
      "L’agent a terminé",
      "Vérification réussie",
      "Révision",
      "Fusion confirmée",
      "Fusionnée dans",
    ];
    const positions = order.map((p) => lines.findIndex((l) => l.includes(p)));
    expect(
      positions.every((p) => p >= 0),
      JSON.stringify(lines),
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(lines.filter((l) => l.includes("Fusionnée dans"))).toHaveLength(1);

    // The root was kept current, edited at most once a second.
    const edits = bot.slack
      .callsTo("chat.update")
      .filter((c) => c.args.ts === root.ts && c.ok)
      .map((c) => c.at);
    expect(edits.length).toBeGreaterThan(3);
    for (let i = 1; i < edits.length; i++) expect(edits[i]! - edits[i - 1]!).toBeGreaterThanOrEqual(990);

    const list = await bot.command("orchestrations");
    const listed = JSON.stringify(await bot.response(list.responseId));
    expect(listed).toContain("Salutation");
    expect(listed).toContain("Fusionnée");
    const others = await bot.command("orchestrations", OTHER);
    expect(JSON.stringify(await bot.response(others.responseId))).not.toContain("Salutation");
  });

  it("a failed verification shows its results; corrections through the modal rerun the agent in the same clone; the merge can be declined", async () => {
    const repo = await botWithRepository();
    await bot.command("orchestrate demo");
    const modal = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.open"),
      10_000,
      "creation modal",
    );
    expect((await bot.submit("orch.create", FORM(TESTS), modal.view.private_metadata as string)).status).toBe(
      200,
    );
    const root = await eventually(
      () =>
        bot.slack.messages("C1").find((m) => !m.thread_ts && buttonsOf(m.blocks).has("orch.draft.approve")),
      15_000,
      "thread root",
    );
    const o = await bot.db.selectFrom("orchestrations").selectAll().executeTakeFirstOrThrow();

    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "printf 'salut\\n' > hello.txt"] },
      { kind: "text", text: "Première version." },
    );
    await bot.click("orch.draft.approve", rootButtons(root.ts).get("orch.draft.approve")!.value!, root.ts);
    await eventually(() => rootButtons(root.ts).has("orch.verify"), 60_000, "AWAITING_VERIFICATION");
    await bot.click("orch.verify", o.id, root.ts);
    await eventually(
      async () => (await status(o.id)) === "VERIFICATION_FAILED",
      30_000,
      "verification failed",
    );
    await eventually(
      () =>
        threadText(root.ts).includes("0 sur 1 réussis") && threadText(root.ts).includes("code de sortie 1"),
      10_000,
      "failed results in the thread",
    );
    await eventually(
      () =>
        rootButtons(root.ts).has("orch.verify") &&
        rootButtons(root.ts).has("orch.corrections") &&
        JSON.stringify(message(root.ts)?.blocks).includes("Vérification échouée"),
      10_000,
      "root: verify again or correct",
    );
    const worktree = (
      await bot.db.selectFrom("orchestrations").select("worktree_path").executeTakeFirstOrThrow()
    ).worktree_path!;

    // Corrections: a modal for the feedback, then the agent resumes in the same clone.
    expect(await answer(bot.click("orch.corrections", o.id, root.ts, OTHER))).toMatch(/introuvable/i);
    await bot.click("orch.corrections", o.id, root.ts);
    const correctionsModal = await eventually(
      () => bot.slack.views.filter((v) => v.method === "views.open")[1],
      10_000,
      "corrections modal",
    );
    expect(correctionsModal.view.callback_id).toBe("orch.corrections");
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "printf 'bonjour\\n' > hello.txt"] },
      { kind: "text", text: "Corrigé." },
    );
    const sent = await bot.submit(
      "orch.corrections",
      { "orch.feedback": { "orch.feedback.value": "Le test attend bonjour." } },
      correctionsModal.view.private_metadata as string,
    );
    expect(sent.status).toBe(200);
    await eventually(
      () => threadText(root.ts).includes("Corrections demandées : Le test attend bonjour."),
      10_000,
      "corrections in the thread",
    );
    await eventually(
      async () => (await status(o.id)) === "AWAITING_VERIFICATION",
      60_000,
      "agent done again",
    );
    expect(
      (await bot.db.selectFrom("orchestrations").select("worktree_path").executeTakeFirstOrThrow())
        .worktree_path,
    ).toBe(worktree);
    expect(fs.readFileSync(path.join(worktree, "hello.txt"), "utf8")).toBe("bonjour\n");

    await eventually(() => rootButtons(root.ts).has("orch.verify"), 10_000, "verify offered again");
    await bot.click("orch.verify", o.id, root.ts);
    await eventually(() => rootButtons(root.ts).has("orch.approve"), 30_000, "USER_REVIEW");
    await bot.click("orch.approve", rootButtons(root.ts).get("orch.approve")!.value!, root.ts);
    await eventually(() => rootButtons(root.ts).has("orch.merge.cancel"), 15_000, "merge confirmation");
    await bot.click("orch.merge.cancel", o.id, root.ts);
    await eventually(async () => (await status(o.id)) === "USER_REVIEW", 10_000, "back to review");
    await eventually(
      () => rootButtons(root.ts).has("orch.approve") && threadText(root.ts).includes("Fusion annulée"),
      10_000,
      "root back to review",
    );
    expect(fs.existsSync(path.join(repo, "hello.txt"))).toBe(false);
  });

  it("an orchestration started outside Slack posts nothing; a channel the bot is not in is told to the owner by DM", async () => {
    await botWithRepository();
    const outside = await createOrchestration(
      bot.bot.engine,
      { userId: OWNER, isAdmin: false },
      { project_id: bot.project.id, name: "Hors Slack", request: "Rien", acceptance_criteria: [], tests: [] },
    );
    await eventually(
      async () =>
        (
          await bot.db
            .selectFrom("outbox")
            .select("status")
            .where("kind", "=", "orchestration.updated")
            .execute()
        ).every((r) => r.status === "done"),
      10_000,
      "event skipped",
    );
    expect(bot.slack.callsTo("chat.postMessage")).toHaveLength(0);
    expect(
      await bot.db
        .selectFrom("slack_addresses")
        .select("thread_ts")
        .where("subject_kind", "=", "orchestration")
        .where("subject_id", "=", outside.id)
        .executeTakeFirst(),
    ).toBeUndefined();

    bot.slack.setChannelError("C99", "not_in_channel");
    await bot.command("orchestrate demo", OWNER, "C99");
    const modal = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.open"),
      10_000,
      "creation modal",
    );
    expect((await bot.submit("orch.create", FORM(""), modal.view.private_metadata as string)).status).toBe(
      200,
    );
    const dm = bot.slack.dmChannel(OWNER);
    const notice = await eventually(
      () => bot.slack.messages(dm).find((m) => m.text.includes("not_in_channel")),
      15_000,
      "DM to the owner",
    );
    expect(notice.text).toContain("<#C99>");
  });
});
