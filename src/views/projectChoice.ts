import { t, type Locale } from "../i18n/index.js";
import { actions, button, context, section, type Block } from "./blocks.js";
import { ACTIONS, BLOCKS } from "./ids.js";
import { MAX_BUTTON_VALUE } from "./limits.js";
import { escapeClip } from "./mrkdwn.js";

/**
 * Where the chosen project's conversation goes: the message's channel and thread, and the prompt;
 * the message's own ts (its files and the thread before it are read at the click) and who wrote it
 * (the only one whose click counts). Both absent from the buttons of an older version.
 */
export interface ChoiceTarget {
  channel: string;
  threadTs: string;
  origin: "mention" | "dm";
  prompt: string;
  ts?: string;
  user?: string;
}

/** Slack takes at most 25 buttons in one actions block. */
const MAX_CHOICES = 25;

/**
 * "Which project?" with one button per project the person may prompt; a click runs the prompt
 * there. The prompt travels in the button's value (no state kept for an unanswered question); one
 * too long for it gets the usage hint instead of buttons.
 */
export function projectChoice(
  locale: Locale,
  projects: string[],
  target: ChoiceTarget,
): { text: string; blocks: Block[] } {
  if (projects.length === 0) {
    const text = t(locale, "ask.no_projects");
    return { text, blocks: [section(text)] };
  }
  const text = t(locale, "ask.choose_project");
  const buttons = projects.slice(0, MAX_CHOICES).flatMap((name, n) => {
    const value = JSON.stringify({ ...target, project: name });
    if (value.length > MAX_BUTTON_VALUE) return [];
    return [button({ actionId: `${ACTIONS.askChoose}.${n}`, text: name, value })];
  });
  if (buttons.length === 0) {
    const hint = t(locale, "ask.prompt_too_long");
    return { text: hint, blocks: [section(hint)] };
  }
  const blocks: Block[] = [
    section(`${text}\n> ${escapeClip(target.prompt.replace(/\s+/g, " "), 300)}`),
    actions(buttons, BLOCKS.askChoice),
  ];
  if (projects.length > MAX_CHOICES)
    blocks.push(context([t(locale, "common.more", { n: projects.length - MAX_CHOICES })]));
  return { text, blocks };
}

/** The target a project button carries, or null when its value is not one (forged or stale). */
export function readProjectChoice(value: string): (ChoiceTarget & { project: string }) | null {
  try {
    const v = JSON.parse(value) as Record<string, unknown>;
    const str = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : null);
    const origin = str("origin");
    const [channel, threadTs, prompt, project] = [
      str("channel"),
      str("threadTs"),
      str("prompt"),
      str("project"),
    ];
    if (!channel || !threadTs || !prompt || !project || (origin !== "mention" && origin !== "dm"))
      return null;
    const [ts, user] = [str("ts"), str("user")];
    return { channel, threadTs, origin, prompt, project, ...(ts ? { ts } : {}), ...(user ? { user } : {}) };
  } catch {
    return null;
  }
}
