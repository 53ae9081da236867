import { t, type Locale } from "../i18n/index.js";
import { redactText } from "../redaction.js";
import {
  actions,
  button,
  confirmDialog,
  context,
  section,
  type Block,
  type ButtonElement,
} from "./blocks.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import { MAX_BLOCK_ID, MAX_SECTION_TEXT } from "./limits.js";
import { escapeClip, escapeMrkdwn, slackLink, userMention } from "./mrkdwn.js";

// The card a lane's thread gets after each turn: what changed in the conversation's branch (its
// commits, its files with +/− lines, the diff inline when short, else as a file the caller
// uploads beside it) and what to do with it (merge, push, pull request, discard). A pure view:
// the caller reads the changes (engine lanes' `laneChanges`) and the lane's state.

/** A diff is shown in the card under these bounds (after redaction), else attached as a file. */
const INLINE_DIFF_LINES = 40;
const INLINE_DIFF_CHARS = 2_500;
/** How many commits and files the card lists (the rest counted). */
const SHOWN_COMMITS = 10;
const SHOWN_FILES = 15;

/** What the card shows of a lane's changes (engine lanes' `LaneChanges` has this shape). */
export interface LaneCardChanges {
  commits: ReadonlyArray<{ sha: string; subject: string }>;
  totalCommits: number;
  files: ReadonlyArray<{ path: string; added: number; removed: number; binary: boolean }>;
  totalFiles: number;
  added: number;
  removed: number;
  diff: string;
  diffBytes: number;
  diffTruncated: boolean;
}

/** Where the lane stands: open (possibly after a refused merge's conflict), or closed for good. */
export type LaneCardState =
  | { kind: "open" }
  | { kind: "conflict"; files: readonly string[] }
  | {
      kind: "merged";
      by: string | null;
      revision: string;
      /** Null: merged before codexpi recorded how. */
      how: "fast-forward" | "merge-commit" | "already-merged" | null;
    }
  | { kind: "discarded"; by: string | null };

/**
 * Whether Push and Open pull request can work (engine forge's `Publishing`): a button that cannot
 * is not shown, and the card says what is missing instead. Null once the lane ended.
 */
export interface LaneCardPublishing {
  push: boolean;
  pullRequest: boolean;
  /** The first missing piece: the checkout's remote, a forge, a stored token; null when none. */
  gap: "remote" | "forge" | "token" | null;
  /** The remote's name the push uses. */
  remote: string;
}

/** A pull request opened for the lane, as the forge last reported it. */
export interface LaneCardPullRequest {
  url: string;
  number: number | null;
  state: "open" | "draft" | "merged" | "closed";
}

export interface LaneCardInput {
  /** The conversation the lane belongs to: the one id each button carries. */
  conversationId: string;
  /** The lane's branch and the project branch it is based on (and merges into). */
  branch: string;
  base: string;
  changes: LaneCardChanges;
  state: LaneCardState;
  /** The remote the branch was pushed to, once pushed. */
  pushed?: { remote: string } | null;
  pullRequest?: LaneCardPullRequest | null;
  /** The project's merge-confirmation setting: Merge asks "are you sure?" first. */
  confirmMerge?: boolean;
  /** The project's name: the hint names it in the commands it gives. */
  project: string;
  publishing: LaneCardPublishing | null;
}

/** The diff to upload beside the card when it is not shown inline (redacted, its cut said). */
export interface LaneDiffFile {
  filename: string;
  title: string;
  content: string;
}

/** The card: fallback text, blocks, and the diff file to upload when the diff is not inline. */
export interface LaneCard {
  text: string;
  blocks: Block[];
  diffFile: LaneDiffFile | null;
}

const blockId = (prefix: string, id: string): string => `${prefix}.${id}`.slice(0, MAX_BLOCK_ID);

/** Inline code: escaped, clipped, unable to close its span. */
const inline = (text: string, max: number): string => `\`${escapeClip(text.replace(/`/g, "'"), max)}\``;

/** A code block that cannot close its fence early. */
const codeBlock = (escaped: string): string => `\`\`\`${escaped.replace(/```/g, "`\u200b``")}\`\`\``;

/** What changed in a lane and what can be done with it, for its conversation's thread. */
export function laneCard(locale: Locale, card: LaneCardInput): LaneCard {
  const id = card.conversationId;
  const c = card.changes;
  const branch = inline(card.branch, 200);
  const base = inline(card.base, 200);
  const head = [`*${t(locale, "lane.card.title", { branch, base })}*`];
  head.push(
    c.totalCommits === 0
      ? t(locale, "lane.card.no_change")
      : t(locale, "lane.card.summary", {
          commits: c.totalCommits,
          files: c.totalFiles,
          added: c.added,
          removed: c.removed,
        }),
  );
  const blocks: Block[] = [section(head.join("\n"), { blockId: blockId(BLOCKS.laneHead, id) })];
  let diffFile: LaneDiffFile | null = null;
  if (c.totalCommits > 0) {
    blocks.push(section(commitLines(locale, c), { blockId: blockId(BLOCKS.laneCommits, id) }));
    if (c.totalFiles > 0)
      blocks.push(section(fileLines(locale, c), { blockId: blockId(BLOCKS.laneFiles, id) }));
    const diff = diffPart(locale, card);
    if (diff.text) blocks.push(section(diff.text, { blockId: blockId(BLOCKS.laneDiff, id) }));
    diffFile = diff.file;
  }
  blocks.push(...statePart(locale, card));
  return { text: t(locale, "lane.card.fallback", { branch: card.branch }), blocks, diffFile };
}

function commitLines(locale: Locale, c: LaneCardChanges): string {
  const lines = c.commits
    .slice(0, SHOWN_COMMITS)
    .map((x) => `• \`${x.sha.slice(0, 8)}\` ${escapeClip(x.subject, 150)}`);
  const more = c.totalCommits - Math.min(c.commits.length, SHOWN_COMMITS);
  if (more > 0) lines.push(t(locale, "common.more", { n: more }));
  return [t(locale, "lane.card.commits"), ...lines].join("\n");
}

function fileLines(locale: Locale, c: LaneCardChanges): string {
  const lines = c.files
    .slice(0, SHOWN_FILES)
    .map(
      (f) =>
        `• ${inline(f.path, 150)} ${f.binary ? `_${t(locale, "lane.card.binary")}_` : `+${f.added} −${f.removed}`}`,
    );
  const more = c.totalFiles - Math.min(c.files.length, SHOWN_FILES);
  if (more > 0) lines.push(t(locale, "common.more", { n: more }));
  return [t(locale, "lane.card.files"), ...lines].join("\n");
}

/** A size in the reader's units (kB, ko…). */
const size = (locale: Locale, bytes: number): string =>
  new Intl.NumberFormat(locale, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 }).format(
    bytes / 1000,
  );

/**
 * The diff inline when short (lines and characters counted after redaction, as Slack receives
 * it), else a note, and the file to upload: redacted too, its cut said on its last line.
 */
function diffPart(locale: Locale, card: LaneCardInput): { text: string | null; file: LaneDiffFile | null } {
  const c = card.changes;
  const redacted = redactText(c.diff).replace(/\n+$/, "");
  if (!redacted) return { text: null, file: null };
  const lines = redacted.split("\n").length;
  const escaped = escapeMrkdwn(redacted);
  const fits =
    !c.diffTruncated &&
    lines < INLINE_DIFF_LINES &&
    redacted.length < INLINE_DIFF_CHARS &&
    escaped.length <= MAX_SECTION_TEXT - 10;
  if (fits) return { text: codeBlock(escaped), file: null };
  const cut = { shown: size(locale, Buffer.byteLength(c.diff)), total: size(locale, c.diffBytes) };
  const note = [t(locale, "lane.card.diff_attached", { lines })];
  if (c.diffTruncated) note.push(t(locale, "lane.card.diff_cut", cut));
  const content = c.diffTruncated
    ? `${redacted}\n${t(locale, "lane.card.diff_cut_line", cut)}\n`
    : `${redacted}\n`;
  return {
    text: note.join(" "),
    file: {
      filename: `${card.branch.replace(/[^A-Za-z0-9._-]+/g, "-")}.diff`,
      title: t(locale, "lane.card.diff_file_title", { branch: card.branch }),
      content,
    },
  };
}

/** The conflict, the push and pull request, and the buttons; or the final state, without buttons. */
function statePart(locale: Locale, card: LaneCardInput): Block[] {
  const id = card.conversationId;
  const s = card.state;
  const base = inline(card.base, 200);
  const blocks: Block[] = [];
  const forge = forgeLines(locale, card);
  if (forge.length) blocks.push(context(forge, blockId(BLOCKS.laneForge, id)));
  if (s.kind === "merged" || s.kind === "discarded") {
    blocks.push(section(finalLine(locale, card), { blockId: blockId(BLOCKS.laneState, id) }));
    return blocks;
  }
  if (s.kind === "conflict") {
    const files = s.files.slice(0, SHOWN_FILES).map((f) => inline(f, 150));
    if (s.files.length > SHOWN_FILES)
      files.push(t(locale, "common.more", { n: s.files.length - SHOWN_FILES }));
    blocks.push(
      section(t(locale, "lane.card.conflict", { base, files: files.join(", ") }), {
        blockId: blockId(BLOCKS.laneConflict, id),
      }),
    );
  }
  const hint = publishingHint(locale, card);
  if (hint) blocks.push(context([hint], blockId(BLOCKS.laneHint, id)));
  blocks.push(actions(laneButtons(locale, card), blockId(BLOCKS.laneActions, id)));
  return blocks;
}

/**
 * Why Push or Open pull request is not offered, and what an admin does about it; null when
 * nothing is hidden (or nothing would be offered: a lane without a commit, a pull request open).
 * A card is one message everyone in the thread sees (Slack cannot show a block to some readers
 * only), so the hint is shown to all, addressed to admins; it never holds a token.
 */
function publishingHint(locale: Locale, card: LaneCardInput): string | null {
  const p = card.publishing;
  if (!p || p.gap === null || card.changes.totalCommits === 0) return null;
  const name = inline(card.project, 100);
  if (p.gap === "remote")
    return t(locale, "lane.card.hint.remote", {
      name,
      remote: inline(p.remote, 100),
      project: escapeClip(card.project, 100),
      remoteName: escapeClip(p.remote, 100),
    });
  const project = escapeClip(card.project, 100);
  // No remote, but the forge's repository is named: pushing there needs the token too.
  if (!p.push) return t(locale, "lane.card.hint.token_push", { name, project });
  if (card.pullRequest) return null;
  return t(locale, `lane.card.hint.${p.gap}`, { name, project });
}

function forgeLines(locale: Locale, card: LaneCardInput): string[] {
  const lines: string[] = [];
  if (card.pushed) lines.push(t(locale, "lane.card.pushed", { remote: inline(card.pushed.remote, 100) }));
  const pr = card.pullRequest;
  if (pr) {
    const label = pr.number === null ? card.branch : `#${pr.number}`;
    lines.push(
      t(locale, "lane.card.pr_line", {
        link: slackLink(pr.url, label),
        state: t(locale, `lane.card.pr_state.${pr.state}`),
      }),
    );
  }
  return lines;
}

function finalLine(locale: Locale, card: LaneCardInput): string {
  const s = card.state;
  const user = (by: string | null) => (by ? userMention(by) : "?");
  if (s.kind === "merged") {
    const revision = `\`${escapeClip(s.revision.slice(0, 8), 8)}\``;
    const base = inline(card.base, 200);
    if (s.how === "fast-forward")
      return t(locale, "lane.card.fast_forwarded", { base, user: user(s.by), revision });
    return t(locale, "lane.card.merged", {
      base,
      user: user(s.by),
      how: t(locale, `lane.card.how.${s.how ?? "unknown"}`, { revision }),
    });
  }
  return t(locale, "lane.card.discarded", { user: user(s.kind === "discarded" ? s.by : null) });
}

/**
 * An open lane's buttons, each carrying the conversation's id only: after a conflict "Ask the
 * agent to merge" comes first; a lane with no commit can only be discarded; Push only with a
 * remote, Open pull request only with a forge and a token too; a lane with a pull request is not
 * offered another.
 */
function laneButtons(locale: Locale, card: LaneCardInput): ButtonElement[] {
  const value = card.conversationId;
  const base = card.base;
  const out: ButtonElement[] = [];
  const conflict = card.state.kind === "conflict";
  if (conflict)
    out.push(
      button({
        actionId: ACTIONS.laneAskMerge,
        text: t(locale, "lane.card.ask_merge", { base }),
        value,
        style: "primary",
      }),
    );
  if (card.changes.totalCommits > 0) {
    out.push(
      button({
        actionId: ACTIONS.laneMerge,
        text: t(locale, "lane.card.merge", { base }),
        value,
        ...(conflict ? {} : { style: "primary" as const }),
        ...(card.confirmMerge ? { confirm: mergeConfirmation(locale, card) } : {}),
      }),
    );
    if (card.publishing?.push)
      out.push(button({ actionId: ACTIONS.lanePush, text: t(locale, "lane.card.push"), value }));
    if (card.publishing?.pullRequest && !card.pullRequest)
      out.push(button({ actionId: ACTIONS.lanePullRequest, text: t(locale, "lane.card.pr"), value }));
  }
  out.push(
    button({
      actionId: ACTIONS.laneDiscard,
      text: t(locale, "lane.card.discard"),
      value,
      style: "danger",
      confirm: confirmDialog({
        title: t(locale, "lane.card.discard_title"),
        text: t(locale, "lane.card.discard_text", { branch: card.branch }),
        confirm: t(locale, "lane.card.discard_yes"),
        deny: t(locale, "lane.card.discard_no"),
        style: "danger",
      }),
    }),
  );
  return out;
}

/** The project asks a confirmation before a merge: the dialog Merge opens. */
function mergeConfirmation(locale: Locale, card: LaneCardInput) {
  return confirmDialog({
    title: t(locale, "lane.card.merge_title"),
    text: t(locale, "lane.card.merge_text", { branch: card.branch, base: card.base }),
    confirm: t(locale, "lane.card.merge_yes"),
    deny: t(locale, "lane.card.discard_no"),
  });
}
