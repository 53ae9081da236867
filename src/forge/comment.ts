import type { ForgeName } from "./store/schema.js";

// The one shape every forge request is read into (payloads.ts, reviewPayload.ts, labels.ts), in a
// module of its own so that the readers do not import each other.

/** A comment on a pull (merge) request or an issue. */
export interface ForgeComment {
  forge: ForgeName;
  repo: string;
  number: number;
  onPull: boolean;
  title: string;
  /** The pull request's (or issue's) page. */
  url: string;
  author: { login: string; id: string };
  body: string;
  commentUrl: string;
  /** A review comment's place in the diff: its file, line and hunk. */
  review: { path: string; line: number | null; hunk: string | null } | null;
  /** A pull request review's verdict (`commented`, `approved`, `changes_requested`) when the body is one's. */
  verdict?: string;
  /** Whose words the body is, when not the author's (a labelled issue's text). */
  quotedAs?: string;
  /** The head as the payload tells it (review comments, GitLab), else null: asked of the forge. */
  head: { branch: string; fork: boolean } | null;
}
