import { forgeFailure } from "./forgeErrors.js";
import type { ForgeTarget } from "./forgeTypes.js";
import { githubIssueLabels, githubListing } from "./pollingGithub.js";
import { gitlabIssueLabels, gitlabNotes } from "./pollingGitlab.js";
import type { ListingPoll, PollCursor } from "./pollingShared.js";

// Polling the forge (issue 33, item 1: installs without a public URL), read with the project's
// token through the same clients as the rest of engine/forge. Only comments created since the
// cursor are given (an edit is no new request, as with webhooks), with the pull request or issue
// they are on, so that the front end can make of each the payload a webhook would have carried.
// - GitHub: `GET /repos/{o}/{r}/issues/comments` (a pull request's conversation is its issue's)
//   and `GET /repos/{o}/{r}/pulls/comments` (review comments), both `since=…&sort=updated&
//   direction=asc`, with `If-None-Match` the last ETag of the same query: a 304 does not count
//   against the rate limit (docs.github.com, "Best practices for using the REST API").
//   Labels given to issues: `GET /repos/{o}/{r}/issues/events` (newest first, one page; the same
//   URL each time, so its ETag always applies), the `labeled` events after the last one seen.
// - GitLab: `GET /projects/:id/events?action=commented&after=YYYY-MM-DD&sort=asc` (each event
//   carries its note), then the merge request or issue. Labels given to issues: `GET
//   /projects/:id/issues?labels=<label>&updated_after=…` and, for each issue updated, `GET
//   /projects/:id/issues/:iid/resource_label_events` (who added the label, when). GitLab's REST
//   API does not answer `If-None-Match` (gitlab-org/gitlab#14357): a few requests per period.

/**
 * Reads a project's new comments from its forge, per listing, from each listing's cursor (or,
 * for a listing never read, from `fromMs`: polling's start), and the issues given `label` (GitHub
 * lists every label given: the front end tells which is its own). Failures other than the rate limit
 * are the catalogue's forge errors, never holding the token.
 */
export async function pollComments(
  target: ForgeTarget,
  cursors: Readonly<Record<string, PollCursor>>,
  fromMs: number,
  label: string,
): Promise<ListingPoll[]> {
  try {
    if (target.forge === "gitlab") {
      const notes = await gitlabNotes(target, cursors["gitlab:notes"], fromMs);
      if (notes.state === "limited") return [notes];
      return [notes, await gitlabIssueLabels(target, cursors["gitlab:issue_labels"], fromMs, label)];
    }
    const out: ListingPoll[] = [];
    for (const listing of ["github:issue_comments", "github:review_comments"] as const) {
      const read = await githubListing(target, listing, cursors[listing], fromMs);
      out.push(read);
      // The limit is the token's: the other listing would only be refused too.
      if (read.state === "limited") return out;
    }
    out.push(await githubIssueLabels(target, cursors["github:issue_events"], fromMs));
    return out;
  } catch (e) {
    throw forgeFailure(e, target);
  }
}
