import { gitlab, projectId } from "./discussion.js";
import type { ForgeTarget } from "./forgeTypes.js";
import {
  answerOf,
  type ListingPoll,
  PAGE,
  type PollCursor,
  type PolledComment,
  time,
  unlessGone,
} from "./pollingShared.js";

// Polling GitLab (polling.ts says what is read where): notes from the project's events, and the
// project's label given to issues. GitLab's REST API answers no `If-None-Match`.

/** The project's `group/sub/name`, as its webhooks name it (asked of GitLab when set as a number). */
async function repositoryPath(target: ForgeTarget): Promise<string> {
  if (!/^\d+$/.test(target.forgeRepo)) return target.forgeRepo;
  return String((await gitlab(target).Projects.show(projectId(target.forgeRepo))).path_with_namespace);
}

interface GlNote {
  id: number;
  body?: string;
  author?: { username: string; id: number };
  noteable_type?: string;
  noteable_iid?: number | null;
  position?: { new_path?: string | null; new_line?: number | null } | null;
  system?: boolean;
}

/** The day before `iso`, as GitLab's `after` takes it (events created after that date). */
const dayBefore = (iso: string) => new Date(time(iso) - 86_400_000).toISOString().slice(0, 10);

/** The notes written since the cursor (the project's `commented` events), each with its merge request or issue. */
export async function gitlabNotes(
  target: ForgeTarget,
  cursor: PollCursor | undefined,
  fromMs: number,
): Promise<ListingPoll> {
  const listing = "gitlab:notes";
  const api = gitlab(target);
  const id = projectId(target.forgeRepo);
  const since = cursor?.since ?? new Date(fromMs).toISOString();
  const lastId = cursor?.last_id ? Number(cursor.last_id) : null;
  const read = await answerOf(
    listing,
    api.Events.all({
      projectId: id,
      action: "commented",
      after: dayBefore(since),
      sort: "asc",
      perPage: PAGE,
      maxPages: 5,
    }) as Promise<Array<Record<string, unknown>>>,
  );
  if (!("answer" in read)) return read;
  const events: Array<Record<string, unknown>> = read.answer;
  const fresh = events.filter((e) =>
    lastId !== null ? Number(e.id) > lastId : time(String(e.created_at)) >= time(since),
  );
  const repo = await repositoryPath(target);
  const comments: PolledComment[] = [];
  const targets = new Map<string, { title: string; url: string; head: PolledComment["head"] }>();
  for (const e of fresh) {
    const note = e.note as GlNote | undefined;
    if (!note?.author || note.system || !note.noteable_iid) continue;
    const kind =
      note.noteable_type === "MergeRequest" ? "pull" : note.noteable_type === "Issue" ? "issue" : null;
    if (!kind) continue;
    const key = `${kind}#${note.noteable_iid}`;
    let on = targets.get(key);
    if (!on) {
      if (kind === "pull") {
        const mr = await unlessGone(api.MergeRequests.show(id, note.noteable_iid));
        if (!mr) continue;
        on = {
          title: String(mr.title),
          url: String(mr.web_url),
          head: { branch: String(mr.source_branch), fork: mr.source_project_id !== mr.target_project_id },
        };
      } else {
        const issue = await unlessGone(api.Issues.show(note.noteable_iid, { projectId: id }));
        if (!issue) continue;
        on = { title: String(issue.title), url: String(issue.web_url), head: null };
      }
      targets.set(key, on);
    }
    comments.push({
      kind: "note",
      id: String(note.id),
      repo,
      body: note.body ?? "",
      url: `${on.url}#note_${note.id}`,
      author: { login: note.author.username, id: String(note.author.id) },
      on: { kind, number: note.noteable_iid, title: on.title, url: on.url },
      head: on.head,
      review: note.position?.new_path
        ? { path: note.position.new_path, line: note.position.new_line ?? null, hunk: null }
        : null,
    });
  }
  const last = events.at(-1);
  const newest = last && (lastId === null || Number(last.id) > lastId) ? last : null;
  return {
    listing,
    state: "read",
    comments,
    cursor: {
      since: newest ? String(newest.created_at) : since,
      last_id: newest ? String(newest.id) : (cursor?.last_id ?? null),
      etag: null,
    },
  };
}

interface GlLabelEvent {
  id: number;
  action?: string;
  created_at: string;
  user?: { username: string; id: number } | null;
  label?: { name?: string } | null;
}

/** The label `label` given to issues since the cursor (GitLab's issues, then their label events). */
export async function gitlabIssueLabels(
  target: ForgeTarget,
  cursor: PollCursor | undefined,
  fromMs: number,
  label: string,
): Promise<ListingPoll> {
  const listing = "gitlab:issue_labels";
  const api = gitlab(target);
  const id = projectId(target.forgeRepo);
  const since = cursor?.since ?? new Date(fromMs).toISOString();
  const lastId = cursor?.last_id ? Number(cursor.last_id) : null;
  const read = await answerOf(
    listing,
    api.Issues.all({
      projectId: id,
      labels: label,
      updatedAfter: since,
      orderBy: "updated_at",
      sort: "asc",
      perPage: PAGE,
      maxPages: 1,
    }) as Promise<Array<Record<string, unknown>>>,
  );
  if (!("answer" in read)) return read;
  const issues: Array<Record<string, unknown>> = read.answer;
  const repo = await repositoryPath(target);
  const comments: PolledComment[] = [];
  let next = since;
  let last = lastId;
  for (const issue of issues) {
    const iid = Number(issue.iid);
    const updated = String(issue.updated_at);
    if (time(updated) > time(next)) next = updated;
    const events = ((await unlessGone(api.IssueLabelEvents.all(id, iid))) ?? []) as GlLabelEvent[];
    for (const e of events) {
      const fresh = lastId !== null ? e.id > lastId : time(e.created_at) >= time(since);
      if (!fresh || e.action !== "add" || !e.user) continue;
      if ((e.label?.name ?? "").toLowerCase() !== label.toLowerCase()) continue;
      if (last === null || e.id > last) last = e.id;
      const author = issue.author as { username?: string } | undefined;
      comments.push({
        kind: "issue_label",
        id: String(e.id),
        repo,
        body: String(issue.description ?? ""),
        url: String(issue.web_url),
        author: { login: e.user.username, id: String(e.user.id) },
        on: { kind: "issue", number: iid, title: String(issue.title), url: String(issue.web_url) },
        head: null,
        review: null,
        label: { name: e.label?.name ?? label, issueAuthor: author?.username ?? "?" },
      });
    }
  }
  return {
    listing,
    state: "read",
    comments: comments.sort((a, b) => Number(a.id) - Number(b.id)),
    cursor: { since: next, last_id: last === null ? null : String(last), etag: null },
  };
}
