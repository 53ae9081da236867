import type { Answer, ForgeRequest } from "./fakeForge.js";

// A project's comment events as the fake GitLab serves them, for polling (docs.gitlab.com,
// "Events API"): `GET /api/v4/projects/:id/events` with `action=commented`, `after` (a date,
// YYYY-MM-DD: events created after it, that day excluded), `sort` (`asc` | `desc`, default desc)
// and `per_page` (≤ 100); each event `{ id, project_id, action_name: "commented on", target_type:
// "Note" | "DiffNote", target_iid, created_at, author_username, author, note: { id, body, author,
// created_at, system, noteable_type, noteable_iid, position } }`. A bad `after` is a 400.

interface NoteEvent {
  id: number;
  project: string;
  created_at: string;
  author: { username: string; id: number };
  note: {
    id: number;
    body: string;
    noteable_type: "MergeRequest" | "Issue";
    noteable_iid: number;
    position: { new_path: string; new_line: number } | null;
  };
}

export class FakeNoteEvents {
  private readonly events: NoteEvent[] = [];

  /** Adds a note as someone wrote it on a merge request (`at`: when; now by default); answers its id. */
  add(
    project: string,
    iid: number,
    n: {
      username: string;
      body: string;
      userId?: number;
      at?: Date;
      position?: NoteEvent["note"]["position"];
    },
  ): number {
    const id = 3000 + this.events.length;
    this.events.push({
      id: 70_000 + this.events.length,
      project,
      created_at: (n.at ?? new Date()).toISOString(),
      author: { username: n.username, id: n.userId ?? 42 },
      note: {
        id,
        body: n.body,
        noteable_type: "MergeRequest",
        noteable_iid: iid,
        position: n.position ?? null,
      },
    });
    return id;
  }

  /** `GET /projects/:id/events`; null for anything else. */
  route(
    req: Omit<ForgeRequest, "status">,
    project: string,
    projectId: number,
    q: URLSearchParams,
  ): Answer | null {
    if (req.method !== "GET") return null;
    const after = q.get("after");
    if (after !== null && !/^\d{4}-\d{2}-\d{2}$/.test(after))
      return { status: 400, body: { error: "after is invalid" } };
    const sort = q.get("sort") ?? "desc";
    if (!["asc", "desc"].includes(sort))
      return { status: 400, body: { error: "sort does not have a valid value" } };
    const action = q.get("action");
    const perPage = Math.min(100, Number(q.get("per_page") ?? 20));
    const dayAfter = after === null ? null : Date.parse(`${after}T00:00:00Z`) + 86_400_000;
    const items = this.events
      .filter((e) => e.project === project && (action === null || action === "commented"))
      .filter((e) => dayAfter === null || Date.parse(e.created_at) >= dayAfter)
      .sort((a, b) => (sort === "asc" ? a.id - b.id : b.id - a.id))
      .slice(0, perPage)
      .map((e) => ({
        id: e.id,
        project_id: projectId,
        action_name: "commented on",
        target_id: e.note.id,
        target_iid: e.note.id,
        target_type: e.note.position ? "DiffNote" : "Note",
        target_title: null,
        created_at: e.created_at,
        author_username: e.author.username,
        author: { ...e.author, name: e.author.username, state: "active" },
        note: {
          ...e.note,
          attachment: null,
          author: { ...e.author, name: e.author.username },
          created_at: e.created_at,
          updated_at: e.created_at,
          system: false,
          noteable_id: 9000 + e.note.noteable_iid,
        },
      }));
    return { status: 200, body: items };
  }
}
