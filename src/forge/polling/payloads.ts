import type { PolledComment } from "../../engine/api/forge.js";

// A polled comment (or label) as the webhook would have delivered it (docs.github.com "Webhook
// events and payloads": `issue_comment`, `pull_request_review_comment`, `issues` labeled;
// docs.gitlab.com "Webhook events": Note Hook, Issue Hook), so that journaling and handling are the
// webhooks' own code, unchanged.

/** A journaled delivery made of a polled comment: its event, id and payload. */
export interface PolledDelivery {
  event: string;
  /** `poll:<kind>:<comment id>`: never a webhook's (GitHub's GUIDs, GitLab's UUIDs). */
  deliveryId: string;
  payload: object;
}

function github(c: PolledComment): PolledDelivery {
  const user = { login: c.author.login, id: Number(c.author.id) };
  const repository = { full_name: c.repo };
  if (c.kind === "issue_label")
    return {
      event: "issues",
      deliveryId: `poll:issue_label:${c.id}`,
      payload: {
        action: "labeled",
        label: { name: c.label?.name ?? "" },
        issue: {
          number: c.on.number,
          title: c.on.title,
          body: c.body,
          html_url: c.on.url,
          user: { login: c.label?.issueAuthor ?? "?" },
        },
        repository,
        sender: user,
      },
    };
  if (c.kind === "review_comment")
    return {
      event: "pull_request_review_comment",
      deliveryId: `poll:review_comment:${c.id}`,
      payload: {
        action: "created",
        comment: {
          id: Number(c.id),
          body: c.body,
          html_url: c.url,
          user,
          path: c.review?.path ?? "",
          line: c.review?.line ?? null,
          diff_hunk: c.review?.hunk ?? null,
        },
        pull_request: {
          number: c.on.number,
          title: c.on.title,
          html_url: c.on.url,
          // A fork's head names another repository (which one does not matter here).
          head: { ref: c.head?.branch ?? "", repo: c.head?.fork ? null : repository },
          base: { repo: repository },
        },
        repository,
        sender: user,
      },
    };
  return {
    event: "issue_comment",
    deliveryId: `poll:issue_comment:${c.id}`,
    payload: {
      action: "created",
      issue: {
        number: c.on.number,
        title: c.on.title,
        html_url: c.on.url,
        ...(c.on.kind === "pull" ? { pull_request: { html_url: c.on.url } } : {}),
      },
      comment: { id: Number(c.id), body: c.body, html_url: c.url, user },
      repository,
      sender: user,
    },
  };
}

function gitlab(c: PolledComment): PolledDelivery {
  const target = { iid: c.on.number, title: c.on.title, url: c.on.url };
  if (c.kind === "issue_label") {
    const label = [{ title: c.label?.name ?? "" }];
    return {
      event: "Issue Hook",
      deliveryId: `poll:issue_label:${c.id}`,
      payload: {
        object_kind: "issue",
        user: { username: c.author.login, id: Number(c.author.id) },
        project: { path_with_namespace: c.repo },
        object_attributes: { ...target, description: c.body, action: "update" },
        labels: label,
        // What the label event says: this label was added (the others are not told).
        changes: { labels: { previous: [], current: label } },
      },
    };
  }
  return {
    event: "Note Hook",
    deliveryId: `poll:note:${c.id}`,
    payload: {
      object_kind: "note",
      user: { username: c.author.login, id: Number(c.author.id) },
      project: { path_with_namespace: c.repo },
      object_attributes: {
        id: Number(c.id),
        note: c.body,
        noteable_type: c.on.kind === "pull" ? "MergeRequest" : "Issue",
        url: c.url,
        position: c.review ? { new_path: c.review.path, new_line: c.review.line } : null,
      },
      ...(c.on.kind === "pull"
        ? {
            merge_request: {
              ...target,
              source_branch: c.head?.branch ?? "",
              // Only whether they differ is read: a fork's source is another project.
              source_project_id: c.head?.fork ? 2 : 1,
              target_project_id: 1,
            },
          }
        : { issue: target }),
    },
  };
}

/** The delivery a polled comment makes. */
export const deliveryOf = (forge: "github" | "gitlab", c: PolledComment): PolledDelivery =>
  forge === "gitlab" ? gitlab(c) : github(c);
