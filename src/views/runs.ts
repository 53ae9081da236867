import { type RunStatusView, canRun } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { context, header, section, type Block, type SlackMessage } from "./blocks.js";
import { BLOCKS } from "./ids.js";
import { MAX_MESSAGE_BLOCKS, MAX_MESSAGE_CHARS } from "./limits.js";
import { escapeMrkdwn, markdownToMrkdwn, userMention } from "./mrkdwn.js";
import {
  blockedButtons,
  code,
  detailedStep,
  fitLines,
  more,
  oneLine,
  RUN_EMOJI,
  runStatusLabel,
  size,
  stateText,
  textSections,
} from "./runParts.js";
import { blockedInputOf } from "./runThread.js";

// The autonomous run in Slack, and the public entry of its views: `/codex run` here; the thread's
// root, the master's verdicts, the blocked message and the final report in runThread.ts; the plan
// modals in runModals.ts; the pieces they share in runParts.ts. Pure.

export {
  MAX_PLAN_INPUT,
  parsePlanText,
  planJson,
  readRunModalMetadata,
  readRunPlan,
  RUN_PLAN_INPUT,
  runPlanErrors,
  runReviseModal,
  runStartModal,
} from "./runModals.js";
export { runStageLabel, type VerdictSubject } from "./runParts.js";
export {
  blockedInputOf,
  runBlockedMessage,
  runFinalReport,
  runRootMessage,
  runVerdictMessages,
  type BlockedInput,
} from "./runThread.js";

/**
 * `/codex run`: the run with every step (state, risk, attempts, latest feedback), why it is
 * blocked and its self-repair, the final report once completed, Resume / Revise while blocked;
 * before any run, how to start one. Stays within one message: long parts are clipped with a note.
 */
export function runDetailView(locale: Locale, view: RunStatusView): SlackMessage {
  if (!("id" in view)) {
    const none = t(locale, "run_view.none");
    return { text: none, blocks: [section(none, { blockId: BLOCKS.runState })] };
  }
  const run = view;
  const head: Block[] = [
    header(`${t(locale, "run_view.title")} · ${runStatusLabel(locale, run.status)}`),
    section(stateText(locale, run), { blockId: BLOCKS.runState }),
  ];
  const tail: Block[] = [];
  if (run.status === "BLOCKED") {
    const b = blockedInputOf(run);
    if (b.code) tail.push(context([t(locale, `run_view.block_code.${b.code}`)]));
    if (b.error.trim())
      tail.push(
        ...textSections(locale, escapeMrkdwn(b.error.trim()), {
          sections: 2,
          idPrefix: BLOCKS.runError,
          title: t(locale, "run_view.error_title"),
          chars: b.error.length,
        }),
      );
  }
  if (run.self_repair && (run.status === "BLOCKED" || run.self_repair.status === "RUNNING")) {
    const r = run.self_repair;
    const feedback = r.feedback?.trim() ? `\n> ${oneLine(r.feedback, 1000)}` : "";
    tail.push(
      section(
        `🔧 ${t(locale, "common.labelled", { label: `*${t(locale, "run_view.repair_title")}*`, value: t(locale, `run_view.repair.${r.status}`) })}${feedback}`,
        { blockId: BLOCKS.runRepair },
      ),
    );
  }
  if (run.status === "COMPLETED" && run.final_report?.trim()) {
    const report = markdownToMrkdwn(run.final_report).trim();
    tail.push(
      ...textSections(locale, report, {
        sections: 1,
        idPrefix: BLOCKS.runReport,
        title: t(locale, "run_view.report_title"),
        chars: run.final_report.length,
        note: (chars) => t(locale, "run_view.report_in_thread", { chars }),
      }),
    );
  }
  if (canRun(run.status, "resume")) tail.push(blockedButtons(locale, run.id));
  tail.push(
    context([t(locale, "run_view.run_id", { id: code(run.id, 100), user: userMention(run.owner_id) })]),
  );
  const title = section(`*${t(locale, "run_view.steps_title")}*`);
  const budget = MAX_MESSAGE_CHARS - 1000 - size(head) - size(tail) - size([title]);
  const steps = fitLines(
    run.steps.map((s) => detailedStep(locale, s)),
    {
      chars: budget,
      blocks: MAX_MESSAGE_BLOCKS - head.length - tail.length - 1,
      idPrefix: BLOCKS.runSteps,
      more: more(locale),
    },
  );
  return {
    text: `${RUN_EMOJI[run.status]} ${t(locale, "run_view.title")} · ${runStatusLabel(locale, run.status)}`,
    blocks: [...head, title, ...steps, ...tail],
  };
}
