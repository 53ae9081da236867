import type {
  OrchestrationEvent,
  OrchestrationView,
  TestResult,
  VerificationRecord,
} from "../engine/api/model.js";
import { isMessageKey, t, type Locale } from "../i18n/index.js";
import { context, section, type Block, type SlackMessage } from "./blocks.js";
import { formatDuration } from "./format.js";
import { BLOCKS } from "./ids.js";
import { clip, MAX_MESSAGE_BLOCKS, splitForSlack } from "./limits.js";
import { escapeClip, escapeMrkdwn, markdownToMrkdwn } from "./mrkdwn.js";
import { redactText } from "../redaction.js";
import { failureText } from "../i18n/failures.js";

// An orchestration's thread: one message group per history step (the full draft, the agent's
// answer, a verification's results), and the text pieces the root message shares. Pure.

/** Characters of blocks one message may use (Slack: keep well under ~12k). */
const MESSAGE_BUDGET = 9_000;
/** Characters of one section carrying split text (Slack: 3000). */
const CHUNK = 2_900;

/** Text on one line, escaped and clipped. */
export const oneLine = (text: string, max: number): string =>
  escapeClip(text.trim().replace(/\s+/g, " "), max);
const code = (text: string): string => `\`${text.replace(/`/g, "ˋ")}\``;
/** A revision, shortened, in inline code. */
export const shortRev = (revision: string | null | undefined): string =>
  code(escapeMrkdwn((revision ?? "?").slice(0, 10)));
/** A branch name in inline code. */
export const branchOf = (branch: string | null | undefined): string => code(oneLine(branch ?? "?", 200));

/** Text in a code block: escaped, and a ``` inside broken up so that it cannot end the block early. */
export function codeBlock(escaped: string): string {
  return `\`\`\`\n${escaped.replace(/`{3,}/g, (run) => run.split("").join("\u200b"))}\n\`\`\``;
}

/** The end of `text`, escaped, at most `max` characters (the end is where failures show). */
export function escapedTail(raw: string, max: number): { text: string; cut: boolean } {
  // Redacted before the cut: the tail must not begin with the second half of a token.
  const text = redactText(raw);
  let n = Math.min(text.length, max);
  for (;;) {
    let tail = text.slice(text.length - n);
    if (/^[\udc00-\udfff]/.test(tail)) tail = tail.slice(1);
    const escaped = escapeMrkdwn(tail);
    if (escaped.length <= max || n <= 1) return { text: escaped, cut: n < text.length };
    n -= Math.max(1, escaped.length - max);
  }
}

/** The escaped draft. Its markup (`*Demande*`, backticks) is codexpi's; what people wrote is escaped. */
export const escapedDraft = (draft: string): string => escapeMrkdwn(draft.trim());

/**
 * Messages made of a head line and chunks of text, each chunk a section: as many messages as
 * needed (within the block and character budgets), each numbered when there are several.
 */
function chunkMessages(
  head: string,
  chunks: string[],
  opts: { idPrefix: string; part?: (index: number, total: number) => string },
): SlackMessage[] {
  const groups: string[][] = [];
  let current: string[] = [];
  let size = head.length;
  for (const chunk of chunks) {
    // Two blocks are kept: the head (first message) and the "part n of m" line.
    if (
      current.length > 0 &&
      (size + chunk.length > MESSAGE_BUDGET || current.length >= MAX_MESSAGE_BLOCKS - 2)
    ) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(chunk);
    size += chunk.length;
  }
  if (current.length || groups.length === 0) groups.push(current);
  return groups.map((group, index) => {
    const blocks: Block[] = [];
    if (index === 0) blocks.push(section(head, { blockId: `${opts.idPrefix}.head` }));
    group.forEach((chunk, i) => blocks.push(section(chunk, { blockId: `${opts.idPrefix}.${index}.${i}` })));
    if (groups.length > 1 && opts.part) blocks.push(context([opts.part(index + 1, groups.length)]));
    const fallback = index === 0 ? head : (group[0] ?? head);
    return { text: clip(fallback.replace(/\s+/g, " "), 300), blocks };
  });
}

/** The full draft of a version, split across sections and messages: never cut. */
export function draftMessages(
  locale: Locale,
  o: Pick<OrchestrationView, "draft" | "draft_version">,
  head = t(locale, "orch_view.step.draft", { version: o.draft_version }),
): SlackMessage[] {
  const chunks = splitForSlack(escapedDraft(o.draft), CHUNK).filter((c) => c.trim() !== "");
  return chunkMessages(head, chunks, {
    idPrefix: BLOCKS.orchDraft,
    part: (index, total) =>
      t(locale, "orch_view.step.draft_part", { version: o.draft_version, index, total }),
  });
}

function resultSection(locale: Locale, r: TestResult, index: number): string {
  const passed = r.passed ? "✅" : "❌";
  const exit = r.timedOut ? t(locale, "orch_view.results.timeout") : String(r.exitCode ?? "?");
  const line = t(locale, "orch_view.results.test", {
    emoji: passed,
    index,
    code: exit,
    duration: formatDuration(locale, r.durationMs),
  });
  const command = `$ ${escapeClip(r.command, 400)}`;
  const output = r.output.trim();
  const tail = escapedTail(output, 2_900 - line.length - command.length - 200);
  const clipped = tail.cut || output.startsWith("…");
  const body = output
    ? `${command}\n${tail.cut ? "…" : ""}${tail.text}`
    : `${command}\n${t(locale, "orch_view.results.no_output")}`;
  return `${line}\n${codeBlock(body)}${clipped ? `\n_${t(locale, "orch_view.results.tail", { chars: tail.text.length })}_` : ""}`;
}

/**
 * A verification's results after `head`: the count of passed tests, then each test's command (its
 * argv as a shell would read it), exit code, duration and the end of its output, escaped; split
 * across messages when long.
 */
export function verificationMessages(
  locale: Locale,
  record: VerificationRecord,
  head: string,
): SlackMessage[] {
  const passed = record.results.filter((r) => r.passed).length;
  const title = record.results.length
    ? t(locale, "orch_view.results.title", { passed, total: record.results.length })
    : t(locale, "orch_view.results.none");
  const chunks = record.results.map((r, i) => resultSection(locale, r, i + 1));
  return chunkMessages(`${head}\n${title}`, chunks, {
    idPrefix: BLOCKS.orchResult,
    part: (index, total) => t(locale, "orch_view.results.part", { index, total }),
  });
}

const line = (text: string): SlackMessage[] => [
  { text: clip(text.replace(/\s+/g, " "), 300), blocks: [section(text, { blockId: BLOCKS.orchStep })] },
];

const detailString = (d: Record<string, unknown>, key: string): string =>
  typeof d[key] === "string" ? (d[key] as string) : "";

/** A refusal's sentence from the catalog (`reason.<reason>`), its parameters escaped. */
function reasonText(locale: Locale, reason: string, params: Record<string, string>): string {
  const key = `reason.${reason}`;
  const safe = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, escapeClip(v, 1500)]));
  return isMessageKey(key) ? t(locale, key, safe) : escapeClip(params.detail ?? reason, 1500);
}

const MERGE_REASONS: Record<string, string> = {
  main_dirty: "orch_main_dirty",
  main_moved: "orch_main_moved",
  conflict: "orch_merge_conflict",
};

/**
 * What one history event shows in the thread (none for internal ones). A draft's full text is
 * shown only for the current version (`o` is the orchestration as it is now); a verification's
 * results when `o` still holds that verification's record.
 */
export function stepMessages(
  locale: Locale,
  o: OrchestrationView,
  event: OrchestrationEvent,
): SlackMessage[] {
  // Own keys only: an event kind such as "toString" must not find Object's.
  const render = Object.hasOwn(STEP_RENDERERS, event.kind) ? STEP_RENDERERS[event.kind] : undefined;
  return render ? render({ locale, o, d: event.detail, kind: event.kind }) : [];
}

/** What a renderer of one history event is given: the event's detail, and the orchestration now. */
interface Step {
  locale: Locale;
  o: OrchestrationView;
  d: Record<string, unknown>;
  kind: string;
}

/** The draft of this version in full if it is the current one, else one line naming it. */
const draftOf = ({ locale, o }: Step, version: number): SlackMessage[] =>
  version === o.draft_version
    ? draftMessages(locale, o)
    : line(t(locale, "orch_view.step.draft_old", { version }));

// One renderer per event kind shown in the thread; kinds not here are internal and show nothing.
const STEP_RENDERERS: Record<string, (step: Step) => SlackMessage[]> = {
  created: (s) => draftOf(s, Number(s.d.draft_version ?? 1)),
  "draft.rejected": draftRejected,
  "draft.approved": ({ locale, o, d }) =>
    line(t(locale, "orch_view.step.approved_draft", { version: Number(d.version ?? o.draft_version) })),
  "prepare.failed": ({ locale, d }) =>
    line(
      t(locale, "orch_view.step.prepare_failed", {
        error: reasonText(locale, detailString(d, "reason"), {
          path: detailString(d, "detail"),
          detail: detailString(d, "detail"),
        }),
      }),
    ),
  "agent.started": ({ locale, o, d }) =>
    line(
      t(locale, "orch_view.step.agent_started", { branch: branchOf(detailString(d, "branch") || o.branch) }),
    ),
  "agent.finished": agentFinished,
  "agent.failed": ({ locale, d }) =>
    line(
      t(locale, "orch_view.step.agent_failed", {
        error: escapeClip(
          failureText(locale, detailString(d, "error")) || detailString(d, "status") || "?",
          1500,
        ),
      }),
    ),
  "corrections.requested": ({ locale, d }) =>
    line(
      t(locale, "orch_view.step.corrections", {
        feedback: escapeClip(detailString(d, "feedback").trim(), 2500),
      }),
    ),
  "verification.passed": verificationEnded,
  "verification.failed": verificationEnded,
  "verification.interrupted": ({ locale }) => line(t(locale, "orch_view.step.verification_interrupted")),
  "revision.approved": revisionApproved,
  "merge.confirmed": ({ locale }) => line(t(locale, "orch_view.step.merge_confirmed")),
  "merge.declined": ({ locale }) => line(t(locale, "orch_view.step.merge_declined")),
  merged: ({ locale, o, d }) =>
    line(
      t(locale, "orch_view.step.merged", {
        branch: branchOf(o.base_branch),
        revision: shortRev(detailString(d, "revision")),
      }),
    ),
  "merge.failed": mergeFailed,
  "cancel.requested": ({ locale }) => line(t(locale, "orch_view.step.cancel_requested")),
  cancelled: ({ locale }) => line(t(locale, "orch_view.step.cancelled")),
};

/** The rejection with its feedback, then the draft that answers it. */
function draftRejected(s: Step): SlackMessage[] {
  const { locale, d } = s;
  const version = Number(d.version ?? 0);
  return [
    ...line(
      t(locale, "orch_view.step.rejected", {
        version,
        feedback: escapeClip(detailString(d, "feedback").trim(), 2500),
      }),
    ),
    ...draftOf(s, version + 1),
  ];
}

/** The agent's answer, split into as many messages as it needs. */
function agentFinished({ locale, d }: Step): SlackMessage[] {
  const answer = detailString(d, "answer").trim();
  const head = t(locale, "orch_view.step.agent_finished");
  if (!answer) return line(head);
  return chunkMessages(head, splitForSlack(markdownToMrkdwn(answer).trim(), CHUNK), {
    idPrefix: BLOCKS.orchStep,
  });
}

/**
 * A verification's verdict: its full results while the orchestration still holds that record,
 * else the tail of its output (or an error when it never reached a revision).
 */
function verificationEnded({ locale, o, d, kind }: Step): SlackMessage[] {
  const passed = kind === "verification.passed";
  const revision = typeof d.revision === "string" ? d.revision : null;
  if (!revision)
    return line(
      t(locale, "orch_view.step.verification_error", {
        error: escapeClip(detailString(d, "output") || "?", 1500),
      }),
    );
  const head = t(locale, passed ? "orch_view.step.verified" : "orch_view.step.verification_failed", {
    revision: shortRev(revision),
  });
  const record = o.verification;
  if (record && record.revision === revision && record.passed === passed)
    return verificationMessages(locale, record, head);
  const output = detailString(d, "output").trim();
  return output
    ? chunkMessages(head, [codeBlock(escapedTail(output, CHUNK - 10).text)], {
        idPrefix: BLOCKS.orchResult,
      })
    : line(head);
}

function revisionApproved({ locale, o, d }: Step): SlackMessage[] {
  const approved = t(locale, "orch_view.step.revision_approved", {
    revision: shortRev(detailString(d, "revision")),
  });
  return line(
    o.merge_confirmation_required ? `${approved}\n${t(locale, "orch_view.step.merge_asked")}` : approved,
  );
}

function mergeFailed({ locale, o, d }: Step): SlackMessage[] {
  const reason = MERGE_REASONS[detailString(d, "reason")] ?? "orch_merge_conflict";
  return line(
    t(locale, "orch_view.step.merge_failed", {
      error: reasonText(locale, reason, {
        branch: o.base_branch ?? "?",
        detail: detailString(d, "detail"),
      }),
    }),
  );
}
