import { describe, expect, it } from "vitest";
import { labelledIssueOf } from "../../src/forge/labels.js";
import { issueAssigned, issueHookLabelled, issueLabelled } from "../support/forgeWebhooks.js";

// What asks codexpi for an issue's work, as each forge's documented payload says it: the project's
// label given, or the issue assigned to the bot's account (the account its handle names).

/** GitLab's Issue Hook of `group/app#3` whose assignees went from `before` to `after`. */
function gitlabAssigned(before: string[], after: string[], action = "update") {
  const {
    labels: _labels,
    changes: _changes,
    ...hook
  } = issueHookLabelled("group/app", 3, "tanuki", "x", "Fix it");
  const users = (names: string[]) => names.map((username, i) => ({ username, id: 50 + i, name: username }));
  return {
    ...hook,
    object_attributes: { ...hook.object_attributes, action },
    assignees: users(after),
    ...(action === "update"
      ? { changes: { assignees: { previous: users(before), current: users(after) } } }
      : {}),
  };
}

describe("an issue for codexpi, as the forges deliver it", () => {
  it("S-FORGE-69: GitHub — labelled with the handle, or assigned to the account it names (any case), asks as its sender; another label or assignee does not", () => {
    const label = labelledIssueOf(
      "github",
      "issues",
      issueLabelled("a/b", 7, "octocat", "codexpi", "t"),
      "codexpi",
    );
    expect(label).toMatchObject({ number: 7, author: { login: "octocat" }, label: "codexpi" });
    const assigned = labelledIssueOf(
      "github",
      "issues",
      issueAssigned("a/b", 7, "octocat", "CodexPi", "t"),
      "codexpi",
    );
    expect(assigned).toMatchObject({ number: 7, author: { login: "octocat" }, body: "t" });
    expect(
      labelledIssueOf("github", "issues", issueAssigned("a/b", 7, "octocat", "alice", "t"), "codexpi"),
    ).toBeNull();
    expect(
      labelledIssueOf("github", "issues", issueLabelled("a/b", 7, "octocat", "bug", "t"), "codexpi"),
    ).toBeNull();
  });

  it("S-FORGE-69: GitLab — an Issue Hook whose assignees gained the bot's account (or one opened assigned to it) asks as its user; one already assigned, or assigned to another, does not", () => {
    const ask = (hook: unknown) => labelledIssueOf("gitlab", "Issue Hook", hook, "codexpi");
    expect(ask(gitlabAssigned(["alice"], ["alice", "codexpi"]))).toMatchObject({
      number: 3,
      author: { login: "tanuki" },
    });
    expect(ask(gitlabAssigned([], ["codexpi"], "open"))).toMatchObject({ number: 3 });
    // Already assigned before this change (an edit of its title, say): not asked again.
    expect(ask(gitlabAssigned(["codexpi"], ["codexpi", "alice"]))).toBeNull();
    expect(ask(gitlabAssigned([], ["alice"]))).toBeNull();
    // The label still asks (the control of the same reader).
    expect(ask(issueHookLabelled("group/app", 3, "tanuki", "codexpi", "Fix it"))).toMatchObject({
      number: 3,
    });
  });
});
