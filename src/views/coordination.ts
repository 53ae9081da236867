import {
  type IncidentView,
  type NotificationPreferences,
  type SpecialistView,
  canIncident,
  canSpecialist,
} from "../engine/api/model.js";
import { t, type Locale, type MessageKey } from "../i18n/index.js";
import {
  actions,
  button,
  context,
  divider,
  header,
  section,
  type Block,
  type SlackMessage,
} from "./blocks.js";
import { ACTIONS, BLOCKS, CALLBACKS, INPUTS } from "./ids.js";
import { fitItems, inputValue, modal, textInput, type ModalView, type StateValues } from "./interactive.js";
import { clip, MAX_BLOCK_ID } from "./limits.js";
import { escapeClip } from "./mrkdwn.js";
import { failureText } from "../i18n/failures.js";

export * from "./decisions.js";
export type {
  CheckboxesElement,
  InputBlock,
  InteractiveBlock,
  ModalView,
  StateValues,
} from "./interactive.js";

const oneLine = (text: string, max: number): string => escapeClip(text.trim().replace(/\s+/g, " "), max);
const more = (locale: Locale) => (n: number) => t(locale, "common.more", { n });
const id = (prefix: string, suffix: string): string => `${prefix}.${suffix}`.slice(0, MAX_BLOCK_ID);

/** Some text as a Slack quote, at most `max` characters and `lines` lines. */
function quote(text: string, max: number, lines: number): string {
  const all = escapeClip(text.trim(), max).split("\n");
  const shown = all.slice(0, lines);
  if (all.length > lines) shown.push("…");
  return shown.map((l) => `> ${l}`.trimEnd()).join("\n");
}

const INCIDENT_EMOJI = {
  OPEN: "🚨",
  REPAIRING: "🔧",
  RESOLVED: "✅",
  FAILED: "❌",
} as const satisfies Record<IncidentView["status"], string>;
const INCIDENT_STATUS = {
  OPEN: "incident.view.status.open",
  REPAIRING: "incident.view.status.repairing",
  RESOLVED: "incident.view.status.resolved",
  FAILED: "incident.view.status.failed",
} as const satisfies Record<IncidentView["status"], MessageKey>;

function incidentHead(locale: Locale, i: IncidentView): string {
  return `${INCIDENT_EMOJI[i.status]} ${t(locale, "incident.view.title", { project: oneLine(i.project_name, 100) })} · ${t(locale, INCIDENT_STATUS[i.status])}`;
}

/** What is known about the incident besides its error: the code and who repairs it. */
function incidentFacts(locale: Locale, i: IncidentView): string[] {
  const facts: string[] = [];
  if (i.error_code) facts.push(t(locale, "incident.view.code", { code: oneLine(i.error_code, 80) }));
  if (i.repair_project_name)
    facts.push(t(locale, "incident.view.repair", { project: oneLine(i.repair_project_name, 100) }));
  else if (!i.auto_repair) facts.push(t(locale, "incident.view.no_auto_repair"));
  return facts;
}

const retry = (locale: Locale, i: IncidentView) =>
  button({ actionId: ACTIONS.incidentRetry, text: t(locale, "incident.view.retry"), value: i.id });

/**
 * An incident, for the project's channel or a DM: the project, its state, the error (quoted,
 * clipped), who repairs it and the resolution once closed; an `incident.retry` button when its
 * state offers a retry (FAILED).
 */
export function incidentMessage(locale: Locale, i: IncidentView): SlackMessage {
  const blocks: Block[] = [];
  const failure = failureText(locale, i.error).trim();
  const error = failure ? `\n${quote(failure, 1500, 20)}` : "";
  blocks.push(section(`${incidentHead(locale, i)}${error}`, { blockId: id(BLOCKS.incidentText, i.id) }));
  const facts = incidentFacts(locale, i);
  if (facts.length) blocks.push(context([facts.join(" · ")]));
  if ((i.status === "RESOLVED" || i.status === "FAILED") && i.resolution?.trim()) {
    blocks.push(
      section(t(locale, "incident.view.resolution", { resolution: escapeClip(i.resolution.trim(), 2000) })),
    );
  }
  if (canIncident(i.status, "offer_retry"))
    blocks.push(actions([retry(locale, i)], id(BLOCKS.incidentActions, i.id)));
  const text = `${INCIDENT_EMOJI[i.status]} ${t(locale, "incident.view.fallback", { project: oneLine(i.project_name, 100), status: t(locale, INCIDENT_STATUS[i.status]) })}`;
  return { text, blocks };
}

/** `/codex incidents`: one entry per incident (Retry on the failed ones), or the empty state. */
export function incidentsView(locale: Locale, incidents: IncidentView[]): SlackMessage {
  const title = t(locale, "incidents.title", { n: incidents.length });
  if (incidents.length === 0)
    return {
      text: t(locale, "incidents.empty"),
      blocks: [header(title), section(t(locale, "incidents.empty"))],
    };
  const items = incidents.map((i, n): Block[] => {
    const lines = [incidentHead(locale, i)];
    const failure = failureText(locale, i.error).trim();
    if (failure) lines.push(`> ${oneLine(failure, 300)}`);
    const facts = incidentFacts(locale, i);
    if ((i.status === "RESOLVED" || i.status === "FAILED") && i.resolution?.trim())
      facts.push(t(locale, "incident.view.resolution", { resolution: oneLine(i.resolution, 300) }));
    if (facts.length) lines.push(facts.join(" · "));
    return [
      section(lines.join("\n"), {
        blockId: `${BLOCKS.incidentsList}.${n}`,
        ...(canIncident(i.status, "offer_retry") ? { accessory: retry(locale, i) } : {}),
      }),
    ];
  });
  return { text: title, blocks: fitItems([header(title)], items, more(locale)) as Block[] };
}

const SPECIALIST_EMOJI = { BUILDING: "🏗️", ACTIVE: "🧩", FAILED: "❌" } as const satisfies Record<
  SpecialistView["status"],
  string
>;
const SPECIALIST_STATUS = {
  BUILDING: "specialist.view.status.building",
  ACTIVE: "specialist.view.status.active",
  FAILED: "specialist.view.status.failed",
} as const satisfies Record<SpecialistView["status"], MessageKey>;

/** `/codex specialists`: name, state, capabilities, what it does; Rebuild on the failed ones. */
export function specialistsView(locale: Locale, specialists: SpecialistView[]): SlackMessage {
  const title = t(locale, "specialists.title", { n: specialists.length });
  if (specialists.length === 0)
    return {
      text: t(locale, "specialists.empty"),
      blocks: [header(title), section(t(locale, "specialists.empty"))],
    };
  const items = specialists.map((s, n): Block[] => {
    const shown = s.capabilities.slice(0, 20).map((c) => `\`${oneLine(c, 80)}\``);
    if (s.capabilities.length > 20) shown.push(t(locale, "common.more", { n: s.capabilities.length - 20 }));
    const lines = [
      `${SPECIALIST_EMOJI[s.status]} *${oneLine(s.name, 100)}* · ${t(locale, SPECIALIST_STATUS[s.status])}${s.owner_id === null ? ` · ${t(locale, "common.shared")}` : ""}`,
      shown.length ? shown.join(" ") : `_${t(locale, "specialist.view.no_capabilities")}_`,
    ];
    const about = s.summary?.trim() || s.description.trim();
    if (about) lines.push(`_${oneLine(about, 500)}_`);
    if (s.status === "FAILED" && s.error.trim())
      lines.push(t(locale, "specialist.view.error", { error: oneLine(s.error, 800) }));
    const rebuild = button({
      actionId: ACTIONS.specialistRebuild,
      text: t(locale, "specialist.view.rebuild"),
      value: s.id,
    });
    const rebuildable = canSpecialist(s.status, "rebuild");
    return [
      section(lines.join("\n"), {
        blockId: `${BLOCKS.specialistsList}.${n}`,
        ...(rebuildable ? { accessory: rebuild } : {}),
      }),
    ];
  });
  return { text: title, blocks: fitItems([header(title)], items, more(locale)) as Block[] };
}

/** The inputs of `specialistAddModal` (`view.state.values[blockId][actionId].value`). */
export const SPECIALIST_ADD_INPUTS = {
  name: { blockId: BLOCKS.specialistName, actionId: INPUTS.specialistName },
  description: { blockId: BLOCKS.specialistDescription, actionId: INPUTS.specialistDescription },
  capabilities: { blockId: BLOCKS.specialistCapabilities, actionId: INPUTS.specialistCapabilities },
} as const;

/** Characters of an input's error message (Slack shows it under the field). */
const MAX_ERROR_TEXT = 2000;

type ModalKey = MessageKey extends infer K ? (K extends `specialist_modal.${infer R}` ? R : never) : never;

/** A field of the specialist form. */
export type SpecialistField = keyof typeof SPECIALIST_ADD_INPUTS;

/**
 * The form creating a specialist (`specialist.add`); the channel it was opened from travels in
 * private_metadata as JSON `{ channelId }` (and `shared: true` for an admin's shared specialist),
 * since a view submission carries no channel.
 */
export function specialistAddModal(
  locale: Locale,
  opts: { channelId?: string; shared?: boolean } = {},
): ModalView {
  const k = (key: ModalKey) => t(locale, `specialist_modal.${key}`);
  return modal({
    callbackId: CALLBACKS.specialistAdd,
    metadata: JSON.stringify({
      ...(opts.channelId ? { channelId: opts.channelId } : {}),
      ...(opts.shared ? { shared: true } : {}),
    }),
    title: k("title"),
    submit: k("submit"),
    close: k("close"),
    blocks: [
      context([k("intro")]),
      textInput({
        ...SPECIALIST_ADD_INPUTS.name,
        label: k("name.label"),
        minLength: 2,
        maxLength: 60,
        placeholder: k("name.placeholder"),
        hint: k("name.hint"),
      }),
      textInput({
        ...SPECIALIST_ADD_INPUTS.description,
        label: k("description.label"),
        multiline: true,
        minLength: 20,
        maxLength: 1000,
        placeholder: k("description.placeholder"),
        hint: k("description.hint"),
      }),
      textInput({
        ...SPECIALIST_ADD_INPUTS.capabilities,
        label: k("capabilities.label"),
        maxLength: 1000,
        placeholder: k("capabilities.placeholder"),
        hint: k("capabilities.hint"),
      }),
    ],
  });
}

/** The metadata of `specialistAddModal` read back (`{}` when missing or malformed). */
export function readSpecialistAddMetadata(privateMetadata: string): { channelId?: string; shared?: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(privateMetadata);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const { channelId, shared } = parsed as { channelId?: unknown; shared?: unknown };
  return {
    ...(typeof channelId === "string" && channelId ? { channelId } : {}),
    ...(shared === true ? { shared: true } : {}),
  };
}

/** The specialist form's values: trimmed texts, capabilities split on commas and whitespace. */
export function readSpecialistAdd(values: StateValues): {
  name: string;
  description: string;
  capabilities: string[];
} {
  const read = (field: SpecialistField) =>
    inputValue(values, SPECIALIST_ADD_INPUTS[field].blockId, SPECIALIST_ADD_INPUTS[field].actionId);
  return {
    name: read("name").trim(),
    description: read("description").trim(),
    capabilities: read("capabilities")
      .split(/[\s,;]+/)
      .map((c) => c.trim())
      .filter(Boolean),
  };
}

/**
 * The `response_action: "errors"` map for an invalid specialist (the engine's issue paths, e.g.
 * `capabilities.0`): each named field's block gets what to fix, or `message` when given (already
 * written for Slack); other paths are ignored.
 */
export function specialistAddErrors(
  locale: Locale,
  issue: { fields: string[] },
  message?: string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const path of issue.fields) {
    const field = path.trim().split(".")[0];
    if (field === "name" || field === "description" || field === "capabilities") {
      errors[SPECIALIST_ADD_INPUTS[field].blockId] = clip(
        message ?? t(locale, `specialist_modal.${field}.error` as const),
        MAX_ERROR_TEXT,
      );
    }
  }
  return errors;
}

const PREFERENCES = ["task_completion", "decisions", "incidents"] as const satisfies ReadonlyArray<
  keyof NotificationPreferences
>;

/** `/codex notify`: each preference on or off, and how to change it. */
export function notifyView(locale: Locale, prefs: NotificationPreferences): SlackMessage {
  const lines = PREFERENCES.map((key) =>
    t(locale, "notify.line", {
      emoji: prefs[key] ? "🔔" : "🔕",
      label: t(locale, `notify.${key}` as const),
      key,
      state: t(locale, prefs[key] ? "notify.on" : "notify.off"),
    }),
  );
  const title = t(locale, "notify.title");
  return {
    text: title,
    blocks: [
      header(title),
      section(lines.join("\n"), { blockId: BLOCKS.notifyPreferences }),
      divider(),
      context([t(locale, "notify.change")]),
    ],
  };
}
