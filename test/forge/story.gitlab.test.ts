import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { git } from "../engine/orchestrations/repo.js";
import type { FakeGitLab } from "../support/fakeGitLab.js";
import { pipelineHook } from "../support/forgeCiWebhooks.js";
import { issueHookLabelled, mrNote, postGitLab } from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { messageEvent } from "../support/slackRequests.js";
import { conversationsQueued, allDone, modelAsked } from "./storyWaits.js";
import { forgeBot, GITLAB_HOOK_SECRET, GITLAB_TOKEN } from "./forgeBot.js";
import { type ServedRepo, servedRepo } from "./servedRepo.js";

// Issue 33's "Done when", on GitLab, end to end (story.test.ts is GitHub's): the real bot, worker
// and Codex in the jail against the fake model, a fake GitLab (REST API v4, Note, Issue and
// Pipeline Hooks with their token) and the repository served over git smart HTTP with the
// project's token (user `oauth2`). A mention on a merge request makes a Slack thread, a note and a
// commit on the merge request's source branch; follow-ups from either side continue it; a
// labelled issue ends as a merge request that closes it, whose failing pipeline gets one fix and
// then gives up.

type Env = Awaited<ReturnType<typeof forgeBot>>;
type Story = { e: Env; gitlab: FakeGitLab; projectId: string; repo: ServedRepo };

const PROJECT = "group/app";
const LOG = `rspec ./spec/widget_spec.rb:12\nSTORY-TRACE-TAIL expected new_name`;

/**
 * The bot's second project `lab` on the fake GitLab, in branch mode on the served repository,
 * tanuki linked to OWNER, the forge channel C2, every trigger on and one fix per merge request.
 */
async function story(): Promise<Story> {
  const e = await forgeBot();
  const { gitlab, projectId } = await e.labOnGitLab();
  const checkout = path.join(path.dirname(e.project.path), "lab");
  const repo = await servedRepo(checkout, { repo: PROJECT, user: "oauth2", token: GITLAB_TOKEN });
  await e.db.updateTable("projects").set({ workspace_mode: "branch" }).where("id", "=", projectId).execute();
  await e.link("gitlab", "tanuki", OWNER);
  await new ForgeThreads(e.db).setSettings(
    projectId,
    { channel_id: "C2", triggers: "comments,issues,ci", fix_ci: "on", fix_ci_tries: 1 },
    Date.now(),
  );
  return { e, gitlab, projectId, repo };
}

function writes(e: Env, file: string): void {
  e.model.enqueue(
    { kind: "shell", command: ["sh", "-c", `printf 'fixed\\n' > ${file}`] },
    { kind: "text", text: `I wrote ${file}.` },
  );
}

async function hook(s: Story, event: string, payload: object, uuid: string): Promise<string> {
  const sent = await postGitLab(s.e.base, { token: GITLAB_HOOK_SECRET, event, payload, uuid });
  expect(sent.status).toBe(202);
  return s.e.outcome("gitlab", uuid);
}

/** The n-th answer codexpi posted on the fake GitLab (its answers link the Slack thread). */
const nthAnswer = (s: Story, n: number) =>
  eventually(
    () => s.gitlab.notes(PROJECT).filter((x) => x.body.includes("fake.slack.test/archives/C2/"))[n - 1],
    120_000,
    `answer ${n}`,
  );

/**
 * A failed Pipeline Hook of a new pipeline on `sha` for merge request `iid`, or a branch pipeline of
 * `ref` (`iid` null: GitLab's pipelines of a push name no merge request); answers its outcome.
 */
function failedPipeline(s: Story, uuid: string, sha: string, iid: number | null, ref?: string) {
  const id = s.gitlab.pipelines.add(PROJECT, [
    { name: "rubocop", conclusion: "success", log: "ok" },
    { name: "rspec 1/2", conclusion: "failure", log: LOG },
  ]);
  return hook(s, "Pipeline Hook", pipelineHook(PROJECT, { id, sha, iid, ref }), uuid);
}

describe("the forge story on GitLab", () => {
  let env: Story | undefined;
  afterEach(async () => {
    await env?.repo.close();
    await env?.e.close();
    env = undefined;
  });

  it("S-FORGE-56: a linked member's @codexpi on a merge request makes a Slack thread, a note on the merge request and a commit on its source branch on the forge (over git smart HTTP, as oauth2 with the token) holding the agent's change; a follow-up from the Slack thread and one from the merge request continue the same conversation, the model seeing the earlier history", async () => {
    env = await story();
    const s = env;
    const { e, repo } = s;
    const iid = s.gitlab.addMergeRequest(PROJECT, { title: "Rename the widget", source: "rename" });
    const before = (await repo.head("rename"))!;

    writes(e, "mr-fix.txt");
    const note = mrNote(PROJECT, iid, "tanuki", "@codexpi rename it here too GL-MARK-1");
    expect(await hook(s, "Note Hook", note, "g-note")).toBe("started");
    const root = await eventually(
      () => e.slack.messages("C2").find((m) => !m.thread_ts && m.text.includes(`${PROJECT}#${iid}`)),
      10_000,
      "the thread's root",
    );
    expect(root.text).toContain("tanuki");
    const one = await nthAnswer(s, 1);
    expect(one).toMatchObject({ iid, on: "merge_request" });
    expect(one.body).toContain("I wrote mr-fix.txt.");
    expect(one.body).toContain("Pushed to the pull request's branch `rename`");
    const after = (await repo.head("rename"))!;
    expect(after).not.toBe(before);
    await git(repo.bare, "merge-base", "--is-ancestor", before, after);
    expect(await repo.show(after, "mr-fix.txt")).toBe("fixed");
    const pushes = repo.server.received.filter((r) => r.url.endsWith("/git-receive-pack"));
    expect(pushes.some((r) => r.status === 200)).toBe(true);

    writes(e, "slack-fix.txt");
    const text = "and GL-MARK-2 from Slack";
    const m = e.slack.say({ channel: "C2", user: OWNER, text, thread_ts: root.ts });
    await e.event(messageEvent({ user: OWNER, channel: "C2", text, ts: m.ts, thread_ts: root.ts }));
    expect(await modelAsked(e, "GL-MARK-2")).toContain("GL-MARK-1");
    await eventually(
      () => e.slack.messages("C2").some((x) => x.thread_ts === root.ts && x.text.includes("slack-fix.txt")),
      60_000,
      "the Slack follow-up's answer",
    );
    await allDone(e, 2);

    writes(e, "note-fix.txt");
    const again = mrNote(PROJECT, iid, "tanuki", "@codexpi GL-MARK-3 one more thing");
    expect(await hook(s, "Note Hook", again, "g-again")).toBe("continued");
    const fromMr = await modelAsked(e, "GL-MARK-3");
    expect(fromMr).toContain("GL-MARK-1");
    expect(fromMr).toContain("GL-MARK-2");
    const two = await nthAnswer(s, 2);
    expect(two.body).toContain("Pushed to the pull request's branch `rename`");
    const last = (await repo.head("rename"))!;
    expect(await repo.show(last, "slack-fix.txt")).toBe("fixed");
    expect(await repo.show(last, "note-fix.txt")).toBe("fixed");
    const conversations = await conversationsQueued(e);
    expect(conversations).toHaveLength(3);
    expect(new Set(conversations).size).toBe(1);
  }, 300_000);

  it("S-FORGE-57, S-FORGE-58: an issue given the label ends as a merge request from the lane's branch that closes it, noted on the issue; a failed pipeline of its branch (naming no merge request, as a push's does) gets one fix attempt in the issue's conversation, pushed to its source branch, and a main branch pipeline runs nothing; the next failure gives up, said once on the merge request and in the thread; a later @codexpi on it continues the same conversation", async () => {
    env = await story();
    const s = env;
    const { e, repo } = s;
    writes(e, "fix-7.txt");
    const issue = issueHookLabelled(PROJECT, 7, "tanuki", "codexpi", "Add fix-7.txt GL-ISSUE-7");
    expect(await hook(s, "Issue Hook", issue, "g-issue")).toBe("started");
    const answer = await nthAnswer(s, 1);
    expect(answer).toMatchObject({ iid: 7, on: "issue" });
    const mrs = s.gitlab.mergeRequests(PROJECT);
    expect(mrs).toHaveLength(1);
    const mr = mrs[0]!;
    expect(mr.description).toContain("Closes #7");
    expect(mr.target_branch).toBe("main");
    expect(answer.body).toContain(`Opened ${mr.web_url}, which closes #7`);
    const opened = (await repo.head(mr.source_branch))!;
    expect(await repo.show(opened, "fix-7.txt")).toBe("fixed");
    const root = e.slack.messages("C2").find((m) => !m.thread_ts && m.text.includes(`${PROJECT}#7`))!;

    // The branch's pipeline fails (a push pipeline: it names no merge request, its branch's is
    // asked of GitLab); one on main, which no merge request comes from, is nobody's.
    expect(await failedPipeline(s, "g-ci-main", "0".repeat(40), null, "main")).toBe("no_pull");
    writes(e, "ci-fix.txt");
    expect(await failedPipeline(s, "g-ci-1", opened, null, mr.source_branch)).toBe("ci_follow_up");
    const asked = await modelAsked(e, "STORY-TRACE-TAIL");
    expect(asked).toContain("GL-ISSUE-7");
    expect(asked).toContain('CI job "rspec 1/2" (gitlab)');
    const fixed = await nthAnswer(s, 2);
    expect(fixed).toMatchObject({ iid: mr.iid, on: "merge_request" });
    expect(fixed.body).toContain(`Pushed to the pull request's branch \`${mr.source_branch}\``);
    const afterFix = (await repo.head(mr.source_branch))!;
    await git(repo.bare, "merge-base", "--is-ancestor", opened, afterFix);
    expect(await repo.show(afterFix, "ci-fix.txt")).toBe("fixed");

    expect(await failedPipeline(s, "g-ci-2", afterFix, mr.iid)).toBe("ci_gave_up");
    expect(await failedPipeline(s, "g-ci-3", "3".repeat(40), mr.iid)).toBe("ci_given_up");
    expect(await conversationsQueued(e)).toHaveLength(2);
    const gaveUp = s.gitlab.notes(PROJECT).filter((n) => n.body.includes("gives up"));
    expect(gaveUp.map((n) => [n.iid, n.on])).toEqual([[mr.iid, "merge_request"]]);
    expect(
      e.slack.messages("C2").filter((m) => m.thread_ts === root.ts && m.text.includes("gives up")),
    ).toHaveLength(1);

    const mention = mrNote(PROJECT, mr.iid, "tanuki", "@codexpi GL-MARK-9 what is left?", mr.source_branch);
    expect(await hook(s, "Note Hook", mention, "g-mention")).toBe("continued");
    expect(await modelAsked(e, "GL-MARK-9")).toContain("GL-ISSUE-7");
    await nthAnswer(s, 3);
    const all = await conversationsQueued(e);
    expect(all).toHaveLength(3);
    expect(new Set(all).size).toBe(1);
  }, 300_000);
});
