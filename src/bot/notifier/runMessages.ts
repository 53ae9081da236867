import type { Clock } from "../../engine/api/runtime.js";
import type { EventOf } from "../../engine/api/model.js";
import type { WebClient } from "@slack/web-api";
import type { EngineApi } from "../../engine/api/index.js";
import type { RunDetail } from "../../engine/api/model.js";
import { t, type Locale } from "../../i18n/index.js";
import { channelMention } from "../../views/mrkdwn.js";
import {
  blockedInputOf,
  runBlockedMessage,
  runFinalReport,
  runRootMessage,
  runVerdictMessages,
  type BlockedInput,
  type VerdictSubject,
} from "../../views/runs.js";
import type { SlackMessage } from "../../views/blocks.js";
import type { SlackAddresses } from "../store/addresses.js";
import type { SlackPoster } from "./poster.js";
import type { UserLocales } from "../userLocales.js";
import { EditPacer } from "./editPacer.js";
import { isSlackUser, RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** The events of a run's thread. */
type RunKind = "run.updated" | "run.verdict";

/** Where a run started from Slack shows itself. */
interface RunThread {
  runId: string;
  channel: string;
  threadTs: string;
}

/**
 * A run started from Slack, in its thread: the root message (posted on the run's first event,
 * its ts kept as the run's Slack address) edited as the run moves, at most once a second; the
 * master's verdicts as their own replies; a message with Resume / Revise buttons when it blocks
 * (edited without them once it moves on); the final report once completed. Renders the run as
 * the database has it now, and posts with keys, so that late, repeated or replayed events never
 * show a stale state nor post twice.
 */
export class RunMessages extends RendererBase implements Renderer<RunKind> {
  private readonly pacer = new EditPacer(() => this.clock.now());
  /** What each edited message shows now (by post key), so that an unchanged render costs no call. */
  private readonly shown = new Map<string, string>();

  // Positional, unlike the other renderers (RendererDeps): test/bot/runs.test.ts builds it so.
  constructor(
    api: EngineApi,
    client: WebClient,
    poster: SlackPoster,
    addresses: SlackAddresses,
    fallback: Locale,
    clock?: Clock,
    locales?: UserLocales,
  ) {
    super({ api, client, poster, addresses, fallback, clock, locales });
  }

  /** Runs `fn` in the language of the run's owner: its thread and DMs are theirs. */
  private async asOwner<T>(runId: string, fn: () => Promise<T>): Promise<T> {
    return this.inLocaleOf((await this.api.runs.origin(runId))?.ownerId, fn);
  }

  /** Only runs started from Slack (with a channel) have a thread to show their events in. */
  async relevant(entries: Array<EntryOf<RunKind>>): Promise<Set<number>> {
    const ids = [...new Set(entries.map((e) => e.event.runId))];
    if (!ids.length) return new Set();
    const inSlack = await this.addresses.addressed("run", ids);
    return new Set(entries.filter((e) => inSlack.has(e.event.runId)).map((e) => e.id));
  }

  async handle(entry: EntryOf<RunKind>): Promise<Rendered> {
    return this.asOwner(entry.event.runId, () => this.render(entry));
  }

  private async render({ id: outboxId, event }: EntryOf<RunKind>): Promise<Rendered> {
    const runId = event.runId;
    const run = await this.api.runs.detail(runId);
    const address = await this.addresses.get("run", runId);
    if (!address || !run) return "ignored";
    const thread = await this.ensureRoot(outboxId, run, address.channel, address.threadTs);
    if (event.kind === "run.verdict") {
      await this.postVerdict(outboxId, thread, run, event);
      return "posted";
    }
    // Posts follow the events that announce them, so that a late delivery keeps the thread's order.
    const announced = event.status;
    await this.blockedMessages(outboxId, thread, run, announced === "BLOCKED");
    if (announced === "COMPLETED" && run.status === "COMPLETED" && run.final_report !== null)
      await this.postAll(
        `run:${runId}:final`,
        outboxId,
        thread,
        runFinalReport(this.locale, run.final_report),
      );
    await this.refreshRoot(thread, run);
    return "posted";
  }

  /** Tells the run's owner by DM that its thread could not be updated (once per run and cause). */
  async reportFailure(entry: EntryOf<RunKind>, code: string): Promise<void> {
    return this.asOwner(entry.event.runId, () => this.tellFailure(entry, code));
  }

  private async tellFailure({ id: outboxId, event }: EntryOf<RunKind>, code: string): Promise<void> {
    const runId = event.runId;
    const origin = await this.api.runs.origin(runId);
    const address = await this.addresses.get("run", runId);
    if (!address || !origin || !isSlackUser(origin.ownerId)) return;
    const where = channelMention(address.channel);
    await this.tellDeliveryFailure({
      key: `run-failure:${runId}:${code}`,
      outboxId,
      conversationId: null,
      userId: origin.ownerId,
      code,
      where,
      otherwise: () => t(this.locale, "run_view.delivery_failed", { channel: where, code }),
    });
  }

  /** Posts the root message if the run has none yet, and records it as the run's Slack address. */
  private async ensureRoot(
    outboxId: number,
    run: RunDetail,
    channel: string,
    threadTs: string | null,
  ): Promise<RunThread> {
    if (threadTs) return { runId: run.id, channel, threadTs };
    const view = runRootMessage(this.locale, run);
    const key = `run:${run.id}:root`;
    const { ts } = await this.postStateMessage(
      { kind: "run", id: run.id, key },
      { outboxId, conversationId: null, channel, threadTs: null },
      view,
    );
    this.shown.set(key, JSON.stringify(view));
    this.pacer.edited(run.id);
    return { runId: run.id, channel, threadTs: ts };
  }

  /** Re-renders the root with the run's current state: only when it changed, at most once a second. */
  private async refreshRoot(thread: RunThread, run: RunDetail): Promise<void> {
    const view = runRootMessage(this.locale, run);
    const key = `run:${run.id}:root`;
    if (this.shown.get(key) === JSON.stringify(view)) return;
    this.pacer.check(run.id);
    await this.edit(thread.channel, thread.threadTs, view);
    this.shown.set(key, JSON.stringify(view));
    this.pacer.edited(run.id);
  }

  /** A master's verdict as its own reply(ies) in the thread. */
  private async postVerdict(
    outboxId: number,
    thread: RunThread,
    run: RunDetail,
    { stepId, decision, feedback }: EventOf<"run.verdict">,
  ): Promise<void> {
    const messages = runVerdictMessages(this.locale, {
      decision,
      feedback,
      subject: subjectOf(run, stepId, decision, feedback),
    });
    await this.postAll(`run:${outboxId}:verdict`, outboxId, thread, messages);
  }

  /**
   * One message per block of the run (keyed by its ordinal): posted with the event announcing the
   * block (while the run is still blocked), edited
   * as its self-repair moves, and edited without its buttons once the run has moved on.
   */
  private async blockedMessages(
    outboxId: number,
    thread: RunThread,
    run: RunDetail,
    announced: boolean,
  ): Promise<void> {
    const blocks = blockRecords(run);
    const keyOf = (n: number) => `run:${run.id}:blocked:${n}`;
    if (run.status === "BLOCKED") {
      const n = blocks.length;
      const view = runBlockedMessage(this.locale, blockedInputOf(run));
      const key = keyOf(n);
      const ts = await this.poster.postedTs(key);
      if (!ts) {
        if (!announced) return;
        await this.poster.postOnce({
          key,
          outboxId,
          conversationId: null,
          purpose: "notice",
          channel: thread.channel,
          threadTs: thread.threadTs,
          text: view.text,
          blocks: view.blocks,
        });
        this.shown.set(key, JSON.stringify(view));
      } else await this.editShown(key, thread.channel, ts, view);
      return;
    }
    // Blocks the run has left behind: their messages lose their buttons.
    const keys = [0, ...blocks.map((_, i) => i + 1)].map(keyOf);
    const posted = await this.poster.posts.postedAmong(keys);
    for (const p of posted) {
      const n = Number(p.key.slice(p.key.lastIndexOf(":") + 1));
      const record = blocks[n - 1];
      const input: BlockedInput = {
        ...(record ?? { stage: null, code: null, error: "", step: null }),
        runId: run.id,
        runStatus: run.status,
        selfRepair: null,
      };
      if (p.ts) await this.editShown(p.key, p.channel, p.ts, runBlockedMessage(this.locale, input));
    }
  }

  /** Edits a message unless it shows that view already. */
  private async editShown(key: string, channel: string, ts: string, view: SlackMessage): Promise<void> {
    const json = JSON.stringify(view);
    if (this.shown.get(key) === json) return;
    await this.edit(channel, ts, view);
    this.shown.set(key, json);
  }

  /** Posts messages in order, once each (`<key>`, then `<key>:<i>` for the following ones). */
  private async postAll(
    key: string,
    outboxId: number,
    thread: RunThread,
    messages: SlackMessage[],
  ): Promise<void> {
    for (const [i, m] of messages.entries()) {
      await this.poster.postOnce({
        key: i === 0 ? key : `${key}:${i}`,
        outboxId,
        conversationId: null,
        purpose: "notice",
        channel: thread.channel,
        threadTs: thread.threadTs,
        text: m.text,
        blocks: m.blocks,
      });
    }
  }
}

/** Each block the run went through, from its history (the n-th is block number n). */
function blockRecords(run: RunDetail): Array<Pick<BlockedInput, "stage" | "code" | "error" | "step">> {
  return run.events
    .filter((e) => e.kind === "run.blocked")
    .map((e) => {
      const d = e.details as { stage?: unknown; code?: unknown; error?: unknown };
      const step = e.step_id ? run.steps.find((s) => s.id === e.step_id) : undefined;
      return {
        stage: typeof d.stage === "string" ? (d.stage as BlockedInput["stage"]) : null,
        code: typeof d.code === "string" ? (d.code as BlockedInput["code"]) : null,
        error: typeof d.error === "string" ? d.error : "",
        step: step ? { order: step.order, title: step.title, projectName: step.project_name } : null,
      };
    });
}

/**
 * What a verdict is about: its step, else the plan or the final report, told by the stage the
 * run's history recorded with that verdict (or, failing that, by whether every step is approved).
 */
function subjectOf(
  run: RunDetail,
  stepId: string | null,
  decision: string,
  feedback: string,
): VerdictSubject {
  const step = stepId ? run.steps.find((s) => s.id === stepId) : undefined;
  if (step) return { kind: "step", order: step.order, title: step.title, projectName: step.project_name };
  const recorded = run.events
    .filter(
      (e) =>
        e.kind === "master.verdict" &&
        e.step_id === null &&
        e.details.decision === decision &&
        e.details.feedback === feedback,
    )
    .at(-1);
  const stage = recorded?.details.stage;
  if (stage === "FINAL_REVIEW") return { kind: "final" };
  if (stage === "PLAN_REVIEW") return { kind: "plan" };
  return run.steps.every((s) => s.status === "APPROVED") ? { kind: "final" } : { kind: "plan" };
}
