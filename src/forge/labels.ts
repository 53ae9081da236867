import { z } from "zod";
import type { ForgeComment } from "./comment.js";
import type { ForgeName } from "./store/schema.js";

// An issue given the project's label (GitHub `issues` "labeled", GitLab's Issue Hook whose labels
// gained it), or assigned to the bot's account (GitHub `issues` "assigned", GitLab's Issue Hook
// whose assignees gained it): read into the shape of a comment, whose author is the person who
// labelled or assigned it (the one who asks) and whose body is the issue's text (quoted to the
// agent as someone else's words). The bot's account is the one its handle names (`@codexpi`), as
// the label is: one name, given once with `forge set --handle`.

/** A labelled issue: the comment shape, plus the label it was given. */
export type LabelledIssue = ForgeComment & { label: string };

const githubLabelled = z.object({
  action: z.enum(["labeled", "assigned"]),
  label: z.object({ name: z.string() }).optional(),
  assignee: z.object({ login: z.string() }).nullable().optional(),
  issue: z.object({
    number: z.number(),
    title: z.string(),
    body: z.string().nullable().optional(),
    html_url: z.string(),
    pull_request: z.unknown().optional(),
    user: z.object({ login: z.string() }).optional(),
  }),
  sender: z.object({ login: z.string(), id: z.union([z.number(), z.string()]) }),
  repository: z.object({ full_name: z.string() }),
});

const gitlabIssue = z.object({
  object_kind: z.literal("issue"),
  user: z.object({ username: z.string(), id: z.union([z.number(), z.string()]) }),
  project: z.object({ path_with_namespace: z.string() }),
  object_attributes: z.object({
    iid: z.number(),
    title: z.string(),
    description: z.string().nullable().optional(),
    url: z.string(),
    action: z.string().optional(),
  }),
  labels: z.array(z.object({ title: z.string() })).optional(),
  assignees: z.array(z.object({ username: z.string() })).optional(),
  changes: z
    .object({
      labels: z
        .object({
          previous: z.array(z.object({ title: z.string() })),
          current: z.array(z.object({ title: z.string() })),
        })
        .optional(),
      assignees: z
        .object({
          previous: z.array(z.object({ username: z.string() })),
          current: z.array(z.object({ username: z.string() })),
        })
        .optional(),
    })
    .optional(),
});

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function github(payload: unknown, label: string): LabelledIssue | null {
  const p = githubLabelled.safeParse(payload);
  if (!p.success || p.data.issue.pull_request) return null;
  // Labelled with the project's label, or assigned to the account its handle names.
  const given = p.data.action === "labeled" ? p.data.label?.name : p.data.assignee?.login;
  if (!given || !same(given, label)) return null;
  const { issue, sender } = p.data;
  return {
    forge: "github",
    repo: p.data.repository.full_name,
    number: issue.number,
    onPull: false,
    title: issue.title,
    url: issue.html_url,
    author: { login: sender.login, id: String(sender.id) },
    body: issue.body ?? "",
    quotedAs: `the issue's text, by ${issue.user?.login ?? "?"} (github)`,
    commentUrl: issue.html_url,
    review: null,
    head: null,
    label: given,
  };
}

/** The labels a GitLab issue just gained (all of them when it was opened with them). */
function gained(p: z.infer<typeof gitlabIssue>): string[] {
  const change = p.changes?.labels;
  if (change) {
    const before = new Set(change.previous.map((l) => l.title));
    return change.current.map((l) => l.title).filter((l) => !before.has(l));
  }
  return p.object_attributes.action === "open" ? (p.labels ?? []).map((l) => l.title) : [];
}

/** The accounts a GitLab issue was just assigned to (all of them when it was opened assigned). */
function assigned(p: z.infer<typeof gitlabIssue>): string[] {
  const change = p.changes?.assignees;
  if (change) {
    const before = new Set(change.previous.map((a) => a.username.toLowerCase()));
    return change.current.map((a) => a.username).filter((a) => !before.has(a.toLowerCase()));
  }
  return p.object_attributes.action === "open" ? (p.assignees ?? []).map((a) => a.username) : [];
}

function gitlab(payload: unknown, label: string): LabelledIssue | null {
  const p = gitlabIssue.safeParse(payload);
  if (!p.success) return null;
  const wanted = [...gained(p.data), ...assigned(p.data)].find((l) => same(l, label));
  if (!wanted) return null;
  const issue = p.data.object_attributes;
  return {
    forge: "gitlab",
    repo: p.data.project.path_with_namespace,
    number: issue.iid,
    onPull: false,
    title: issue.title,
    url: issue.url,
    author: { login: p.data.user.username, id: String(p.data.user.id) },
    body: issue.description ?? "",
    quotedAs: "the issue's text (gitlab)",
    commentUrl: issue.url,
    review: null,
    head: null,
    label: wanted,
  };
}

/**
 * The issue a delivery labels with `label`, or assigns to the account named `label` (the project's
 * handle; case-insensitive), or null.
 */
export function labelledIssueOf(
  forge: ForgeName,
  event: string,
  payload: unknown,
  label: string,
): LabelledIssue | null {
  if (forge === "github") return event === "issues" ? github(payload, label) : null;
  return event === "Issue Hook" ? gitlab(payload, label) : null;
}
