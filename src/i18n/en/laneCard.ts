import type { laneCard as fr } from "../fr/laneCard.js";
import { count, type Message } from "../message.js";

const s = (n: number) => (n === 1 ? "" : "s");

/** English messages of a lane's card (what changed in a conversation's branch) and its merge. */
export const laneCard = {
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
  "lane.card.how.fast-forward": "fast-forward to {revision}",
  "lane.card.how.merge-commit": "merge commit {revision}",
  "lane.card.how.already-merged": "already merged ({revision})",
  "lane.card.discarded": "🗑️ Discarded by {user}: the working branch is removed.",
  "lane.card.fallback": "What changed in {branch}",
} satisfies Record<keyof typeof fr, Message>;
