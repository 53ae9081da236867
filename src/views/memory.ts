import type { MemoryListing, NoteView } from "../engine/api/model.js";
import { MAX_NOTE_CHARS } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { actions, type Block, button, context, divider, section, type SlackMessage } from "./blocks.js";
import { modal, type ModalView, textInput } from "./interactive.js";
import { escapeClip, userMention } from "./mrkdwn.js";
import { ACTIONS, BLOCKS, CALLBACKS, INPUTS } from "./ids.js";
import { clockTime } from "./schedules.js";

// Project memory in Slack (issue 34): an agent's proposal as a card in its thread (Keep, Edit,
// Discard), a project's notes as `/codex memory` lists them (Forget, Edit) and App Home shows
// them. The buttons carry only the note's id: the engine checks each click against the clicker.

const SLACK_USER = /^[UW][A-Z0-9]+$/;
const SLACK_CHANNEL = /^[CGD][A-Z0-9]+$/;

/** A note's place as Slack shows it: the channel's mention (the engine only knows an id). */
const where = (place: string) => (SLACK_CHANNEL.test(place) ? `<#${place}>` : `\`${escapeClip(place, 60)}\``);

/** Someone as Slack shows them: a mention for a Slack user, the recorded name otherwise. */
const who = (id: string | null) =>
  id && SLACK_USER.test(id) ? userMention(id) : `\`${escapeClip(id ?? "?", 60)}\``;

/** A note's words as a quote: other people's text, escaped, every line quoted. */
const quoted = (text: string) =>
  escapeClip(text, MAX_NOTE_CHARS + 10)
    .split("\n")
    .map((l) => `>${l}`)
    .join("\n");

/** A proposal's card: what the agent proposes and, while open, Keep / Edit / Discard. */
export function memoryCard(locale: Locale, note: NoteView): SlackMessage {
  const project = escapeClip(note.project, 80);
  const head =
    note.status === "proposed"
      ? t(locale, "memory.card.proposed", { project })
      : note.status === "kept"
        ? t(locale, note.place ? "memory.card.kept_here" : "memory.card.kept", {
            who: who(note.decidedBy),
            id: note.id,
            project,
          })
        : note.status === "discarded"
          ? t(locale, "memory.card.discarded", { who: who(note.decidedBy) })
          : t(locale, "memory.card.forgotten", { who: who(note.decidedBy) });
  const blocks: Block[] = [
    section(`${head}\n${note.status === "discarded" ? "" : quoted(note.text)}`.trimEnd(), {
      blockId: BLOCKS.memoryNote,
    }),
  ];
  if (note.status === "proposed")
    blocks.push(
      actions(
        [
          button({
            actionId: ACTIONS.memoryKeep,
            text: t(locale, "memory.button.keep"),
            value: note.id,
            style: "primary",
          }),
          // Started in a channel: the proposal may be kept for that channel's conversations only.
          ...(note.proposedIn
            ? [
                button({
                  actionId: ACTIONS.memoryKeepHere,
                  text: t(locale, "memory.button.keep_here"),
                  value: note.id,
                }),
              ]
            : []),
          button({ actionId: ACTIONS.memoryEdit, text: t(locale, "memory.button.edit"), value: note.id }),
          button({
            actionId: ACTIONS.memoryDiscard,
            text: t(locale, "memory.button.discard"),
            value: note.id,
            style: "danger",
          }),
        ],
        BLOCKS.memoryActions,
      ),
    );
  return { text: head, blocks };
}

/** Who added a note and when, as the list shows it. */
const provenance = (locale: Locale, n: NoteView) =>
  n.source === "agent"
    ? t(locale, "memory.list.from_agent", { who: who(n.decidedBy), date: clockTime(n.createdAt) })
    : t(locale, "memory.list.by", { who: who(n.addedBy), date: clockTime(n.createdAt) });

/** A note kept for one place, labelled: "this channel" where it is listed, else the channel. */
const placeMark = (locale: Locale, n: NoteView, here: string | null) =>
  !n.place
    ? ""
    : n.place === here
      ? ` ${t(locale, "memory.list.here")}`
      : ` ${t(locale, "memory.list.place", { place: where(n.place) })}`;

/**
 * The blocks of one project's notes: each quoted, with Edit and Forget for those who may (the
 * first `maxNotes`; the CLI lists them all).
 */
function memoryListBlocks(locale: Locale, m: MemoryListing, maxNotes = 15): Block[] {
  const project = escapeClip(m.project, 80);
  if (!m.notes.length)
    return [section(t(locale, "memory.list.none", { project }), { blockId: BLOCKS.memoryList })];
  const blocks: Block[] = [
    section(t(locale, "memory.list.title", { project, n: m.notes.length }), { blockId: BLOCKS.memoryList }),
  ];
  const leftOut = new Set(m.leftOut);
  for (const n of m.notes.slice(0, maxNotes)) {
    const mark = leftOut.has(n.id) ? " :warning:" : "";
    blocks.push(section(`\`${n.id}\`${mark} ${quoted(n.text)}`, { blockId: `${BLOCKS.memoryNote}.${n.id}` }));
    blocks.push(context([`${provenance(locale, n)}${placeMark(locale, n, m.place)}`]));
    if (m.mayWrite)
      blocks.push(
        actions(
          [
            button({ actionId: ACTIONS.memoryEdit, text: t(locale, "memory.button.edit"), value: n.id }),
            button({
              actionId: ACTIONS.memoryForget,
              text: t(locale, "memory.button.forget"),
              value: n.id,
              style: "danger",
            }),
          ],
          `${BLOCKS.memoryActions}.${n.id}`,
        ),
      );
  }
  if (m.leftOut.length)
    blocks.push(
      context(
        [
          t(locale, "memory.list.left_out", {
            n: m.leftOut.length,
            chars: m.budget,
            ids: m.leftOut.join(", "),
          }),
        ],
        BLOCKS.memoryLeftOut,
      ),
    );
  if (!m.mayWrite) blocks.push(context([t(locale, "memory.list.read_only")]));
  return blocks;
}

/** `/codex memory <project>`: its notes, as an ephemeral message. */
export function memoryListMessage(locale: Locale, m: MemoryListing): SlackMessage {
  const text = m.notes.length
    ? t(locale, "memory.list.title", { project: escapeClip(m.project, 80), n: m.notes.length })
    : t(locale, "memory.list.none", { project: escapeClip(m.project, 80) });
  return { text, blocks: memoryListBlocks(locale, m) };
}

/** The modal that edits a note (or a proposal, which is kept with the new words). */
export function memoryEditModal(locale: Locale, note: NoteView, metadata: string): ModalView {
  return modal({
    callbackId: CALLBACKS.memoryEdit,
    metadata,
    title: t(locale, "memory.modal.title"),
    submit: t(locale, "memory.modal.submit"),
    close: t(locale, "memory.modal.close"),
    blocks: [
      textInput({
        blockId: BLOCKS.memoryText,
        actionId: INPUTS.memoryText,
        label: t(locale, "memory.modal.label", { project: note.project }),
        multiline: true,
        maxLength: MAX_NOTE_CHARS,
        initialValue: note.text,
      }),
    ],
  });
}

/**
 * App Home's project memory: each project's notes as quoted lines (changed from `/codex memory`,
 * whose buttons answer through a response URL App Home does not have), with what the budget cuts.
 */
export function homeMemoryBlocks(locale: Locale, listings: MemoryListing[]): Block[] {
  const blocks: Block[] = [
    divider(),
    section(t(locale, "home.memory.title"), { blockId: BLOCKS.homeMemory }),
  ];
  listings.slice(0, 10).forEach((m, i) => {
    const project = escapeClip(m.project, 80);
    const lines = m.notes
      .slice(0, 15)
      .map(
        (n) =>
          `\`${n.id}\`${m.leftOut.includes(n.id) ? " :warning:" : ""}${placeMark(locale, n, null)} ${escapeClip(n.text.replace(/\s+/g, " "), 200)}`,
      );
    if (m.notes.length > 15) lines.push(t(locale, "common.more", { n: m.notes.length - 15 }));
    blocks.push(
      section([t(locale, "memory.list.title", { project, n: m.notes.length }), ...lines].join("\n"), {
        blockId: `${BLOCKS.homeMemory}.${i}`,
      }),
    );
    if (m.leftOut.length)
      blocks.push(
        context([
          t(locale, "memory.list.left_out", {
            n: m.leftOut.length,
            chars: m.budget,
            ids: m.leftOut.join(", "),
          }),
        ]),
      );
  });
  return blocks;
}
