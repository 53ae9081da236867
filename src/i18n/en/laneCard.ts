import type { laneCard as fr } from "../fr/laneCard.js";
import { count, type Message } from "../message.js";

const s = (n: number) => (n === 1 ? "" : "s");

/** English messages of a lane's card (what changed in a conversation's branch) and its merge. */
export const laneCard = {
  "reason.lane_merge_not_allowed": "only the owner of {name} and admins merge its conversations' branches",
  "reason.lane_publish_not_allowed":
    "only the person who asked, and admins, push this branch or open its pull request",
  "reason.lane_no_remote":
    "this branch cannot leave: the checkout of {name} names no remote `{remote}`, and no forge repository is named. An admin adds the remote there (`git remote add {remote} URL`), or names the forge's repository (`/codex project forge {name} --kind github|gitlab --repo OWNER/NAME`) and stores a token on the host",
  "reason.lane_ended": "this branch is no longer kept: it was merged or discarded",
  "reason.lane_not_on_head":
    "this lane did not start from the pull request's branch {branch}: its commits are not pushed there",
  "reason.lane_no_base": "this branch started from a detached checkout: there is no branch to merge it into",
  "reason.lane_checkout_dirty":
    "the checkout of {name} has uncommitted changes: commit or stash them, then merge into `{base}` again",
  "reason.lane_checkout_moved":
    "the checkout of {name} has another branch out: check out `{base}`, then merge again",
  "reason.lane_unsealed":
    "this branch's working clone had its git configuration changed since codexpi made it: nothing is merged, pushed or run from it; discard it",
  "lane.pr_body":
    "{request}\n\n---\n\n**What the agent did**\n\n{summary}\n\n---\n\nAsked by {requester} in Slack: {thread}\n\n_Opened by codexpi._",
  "lane.reply.conflict":
    "The merge stopped on a conflict in {n} file(s): the card names them and offers to ask the agent.",
  "lane.reply.ask_asked":
    "The agent is asked to merge the base into its branch and resolve the conflicts: its answer comes in this thread.",
  "lane.reply.ask_merged": "The base merged into the branch without conflict: merge it again.",
  "lane.reply.ask_up_to_date": "The branch already contains its base: nothing to merge.",
  "lane.merge_message": "Merge {branch} into {base} (codexpi)",
  "prompt.lane_merge_base":
    "The project's branch `{base}` moved on and no longer merges cleanly with your branch. codexpi has started merging `{base}` (`{ref}`) into your branch, right here: the files below hold conflict markers.\n\nResolve each conflict keeping the intent of both sides, remove every conflict marker, then check that the project builds and its tests pass. Do not commit and do not abort the merge (`git merge --abort`): codexpi records the merge commit when your turn ends.\n\nConflicting files:\n{files}",
  "prompt.lane_merge_base_no_files":
    "(no conflicting file: only check that the project builds and its tests pass)",
  "lane.card.title": "🌿 Branch {branch} → {base}",
  "lane.card.summary": (p) =>
    `{commits} commit${s(count(p, "commits"))} · {files} file${s(count(p, "files"))} changed · +{added} −{removed}`,
  "lane.card.no_change": "No change in this branch yet.",
  "lane.card.commits": "*Commits*",
  "lane.card.files": "*Files*",
  "lane.card.binary": "binary",
  "lane.card.diff_attached": (p) =>
    `The diff ({lines} line${s(count(p, "lines"))}) is long: it is attached as a file in this thread.`,
  "lane.card.diff_cut": "The attached file is cut at {shown} of {total}.",
  "lane.card.diff_cut_line": "[… diff cut here: {shown} of {total}]",
  "lane.card.diff_file_title": "Diff of {branch}",
  "lane.card.merge": "Merge into {base}",
  "lane.card.push": "Push branch",
  "lane.card.pr": "Open pull request",
  "lane.card.merge_title": "Merge this branch?",
  "lane.card.merge_text": "Merge `{branch}` into `{base}` in the project’s checkout?",
  "lane.card.merge_yes": "Merge",
  "lane.card.discard": "Discard",
  "lane.card.discard_title": "Discard this branch?",
  "lane.card.discard_text":
    "The working clone of {branch} is removed, and its changes that were neither merged nor pushed are lost.",
  "lane.card.discard_yes": "Discard",
  "lane.card.discard_no": "Keep",
  "lane.card.conflict": "⚠️ Merging into {base} conflicts; the project was left as it was. Files: {files}",
  "lane.card.ask_merge": "Ask the agent to merge {base}",
  "lane.card.pushed": "⬆️ Branch pushed to {remote}.",
  "lane.card.pr_line": "🔀 Pull request {link} · {state}",
  "lane.card.pr_state.open": "open",
  "lane.card.pr_state.draft": "draft",
  "lane.card.pr_state.merged": "merged",
  "lane.card.pr_state.closed": "closed",
  "lane.card.merged": "✅ Merged into {base} by {user}: {how}",
  "lane.card.fast_forwarded": "✅ Fast-forwarded {base} to {revision} by {user} (no merge commit)",
  "lane.card.how.unknown": "{revision}",
  "lane.card.how.merge-commit": "merge commit {revision}",
  "lane.card.how.already-merged": "already merged ({revision})",
  "lane.card.discarded": "🗑️ Discarded by {user}: the working branch is removed.",
  "lane.card.hint.remote":
    "ℹ️ No Push branch or Open pull request: the checkout of {name} names no remote {remote}. Admins: add it there (`git remote add {remoteName} URL`), or name the forge's repository (`/codex project forge {project} --kind github|gitlab --repo OWNER/NAME`) and store a token on the host.",
  "lane.card.hint.forge":
    "ℹ️ No Open pull request: project {name} has no forge. Admins: `/codex project forge {project} --kind github|gitlab --repo OWNER/NAME`.",
  "lane.card.hint.token":
    "ℹ️ No Open pull request: no forge token is stored for {name}. Admins store one on the host, never in Slack: `codexpi project credential {project} --forge-token -`.",
  "lane.card.hint.token_push":
    "ℹ️ No Push branch or Open pull request: the checkout of {name} names no remote, and pushing to the forge's repository needs a token. Admins store one on the host, never in Slack: `codexpi project credential {project} --forge-token -`.",
  "lane.card.fallback": "What changed in {branch}",
} satisfies Record<keyof typeof fr, Message>;
