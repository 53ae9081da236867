import { z } from "zod";
import { quotedOrCode } from "./quotedText.js";

/** The kinds of request an agent can make by ending its message with a marker. */
export type MarkerKind =
  | "supervision"
  | "selfRepair"
  | "decision"
  | "specialistCall"
  | "specialistReady"
  | "remember";

/** The keyword that introduces each marker kind. */
const MARKER_KEYWORD_BY_KIND = {
  supervision: "CODEXPI_SUPERVISION",
  selfRepair: "CODEXPI_SELF_REPAIR",
  decision: "CODEXPI_DECISION",
  specialistCall: "CODEXPI_SPECIALIST_CALL",
  specialistReady: "CODEXPI_SPECIALIST_READY",
  remember: "CODEXPI_REMEMBER",
} as const satisfies Record<MarkerKind, string>;

/** Every marker keyword, e.g. to tell agents which words are reserved. */
export const MARKER_KEYWORDS = Object.values(MARKER_KEYWORD_BY_KIND) as readonly MarkerKeyword[];

/** One of the marker keywords. */
export type MarkerKeyword = (typeof MARKER_KEYWORD_BY_KIND)[MarkerKind];

/** Slack's static selects take at most 25 options, so a decision cannot offer more. */
export const MAX_DECISION_OPTIONS = 25;

const text = z.string().trim();
const nonEmptyText = text.min(1);

/** `CODEXPI_SUPERVISION`: the supervisor's verdict on a step or a plan. */
const supervisionSchema = z.object({
  decision: z.enum(["approve", "correct", "block"]),
  feedback: text,
});
/** A supervisor's verdict. */
export type Supervision = z.infer<typeof supervisionSchema>;

/** `CODEXPI_SELF_REPAIR`: the self project's answer to a blocked run. */
const selfRepairSchema = z.object({
  decision: z.enum(["fixed", "needs_user"]),
  feedback: text,
  // Required even when empty: its absence means the agent did not follow the protocol.
  prompt_addendum: text,
});
/** A self-repair verdict. */
export type SelfRepair = z.infer<typeof selfRepairSchema>;

/** One choice offered by a decision. */
const decisionOptionSchema = z.object({ id: nonEmptyText, label: nonEmptyText });
/** A choice offered by a decision. */
export type DecisionOption = z.infer<typeof decisionOptionSchema>;

/** `CODEXPI_DECISION`: a question the agent needs its owner to answer before going on. */
const decisionRequestSchema = z
  .object({
    title: text.optional(),
    question: nonEmptyText,
    options: z
      .array(decisionOptionSchema)
      .min(1)
      .max(MAX_DECISION_OPTIONS)
      // Answers name options by id, so two options with one id would make an answer ambiguous.
      .refine((options) => new Set(options.map((o) => o.id)).size === options.length, {
        message: "option ids must be unique",
      }),
    allow_multiple: z.boolean().default(false),
    allow_custom: z.boolean().default(false),
  })
  .transform(({ title, ...rest }) => ({ title: title || rest.question, ...rest }));
/** A decision request, with its title and flags filled in. */
export type DecisionRequest = z.infer<typeof decisionRequestSchema>;

/** `CODEXPI_SPECIALIST_CALL`: an agent delegating a task to whichever specialist has the capability. */
const specialistCallSchema = z.object({
  capability: nonEmptyText,
  task: nonEmptyText,
  // Context only enriches the task, so leaving it out is not a protocol error.
  context: text.default(""),
});
/** A delegation request. */
export type SpecialistCall = z.infer<typeof specialistCallSchema>;

/** `CODEXPI_SPECIALIST_READY`: a specialist's bootstrap reporting it is ready to work. */
const specialistReadySchema = z.object({
  summary: text,
  capabilities: z.array(nonEmptyText).transform((caps) => [...new Set(caps)]),
});
/** A specialist's readiness report. */
export type SpecialistReady = z.infer<typeof specialistReadySchema>;

/** The longest note a project keeps (a proposal longer than this is no proposal). */
export const MAX_NOTE_CHARS = 1000;

/**
 * `CODEXPI_REMEMBER`: a note the agent proposes for its project's memory. Only a proposal: a
 * person with the right keeps it with a click (engine/memory).
 */
const rememberSchema = z.object({ text: nonEmptyText.max(MAX_NOTE_CHARS) });

const SCHEMA_BY_KIND = {
  supervision: supervisionSchema,
  selfRepair: selfRepairSchema,
  decision: decisionRequestSchema,
  specialistCall: specialistCallSchema,
  specialistReady: specialistReadySchema,
  remember: rememberSchema,
} as const satisfies Record<MarkerKind, z.ZodType>;

/** The marker that counts for each kind in a message, or null when it has none. */
export type Markers = { [K in MarkerKind]: z.infer<(typeof SCHEMA_BY_KIND)[K]> | null };

/** Parses the last valid `CODEXPI_SUPERVISION` marker in `text`. */
export function parseSupervision(text: string): Supervision | null {
  return parseMarker(text, "supervision");
}

/** Parses the last valid `CODEXPI_SELF_REPAIR` marker in `text`. */
export function parseSelfRepair(text: string): SelfRepair | null {
  return parseMarker(text, "selfRepair");
}

/** Parses the last valid `CODEXPI_DECISION` marker in `text`. */
export function parseDecisionRequest(text: string): DecisionRequest | null {
  return parseMarker(text, "decision");
}

/** Parses the last valid `CODEXPI_SPECIALIST_CALL` marker in `text`. */
export function parseSpecialistCall(text: string): SpecialistCall | null {
  return parseMarker(text, "specialistCall");
}

/** Parses the last valid `CODEXPI_SPECIALIST_READY` marker in `text`. */
export function parseSpecialistReady(text: string): SpecialistReady | null {
  return parseMarker(text, "specialistReady");
}

/** Parses every marker kind in `text` at once: for each, the last valid one, else null. */
export function findMarkers(text: string): Markers {
  return {
    supervision: parseSupervision(text),
    selfRepair: parseSelfRepair(text),
    decision: parseDecisionRequest(text),
    specialistCall: parseSpecialistCall(text),
    specialistReady: parseSpecialistReady(text),
    remember: parseMarker(text, "remember"),
  };
}

/** Parses the last occurrence of a marker kind whose JSON satisfies its schema. */
function parseMarker<K extends MarkerKind>(text: string, kind: K): Markers[K] {
  const schema = SCHEMA_BY_KIND[kind] as unknown as z.ZodType<NonNullable<Markers[K]>>;
  return lastValid(text, kind, schema)?.data ?? null;
}

// An agent may draft a marker and then correct it; the later one is its final word.
function lastValid<T>(text: string, kind: MarkerKind, schema: z.ZodType<T>): { at: number; data: T } | null {
  const payloads = markerPayloads(text, MARKER_KEYWORD_BY_KIND[kind]);
  for (let i = payloads.length - 1; i >= 0; i--) {
    const payload = payloads[i] as { at: number; value: Record<string, unknown> };
    const parsed = schema.safeParse(payload.value);
    if (parsed.success) return { at: payload.at, data: parsed.data };
  }
  return null;
}

/**
 * The answer as a person reads it when it asks a decision: the text before the decision's marker
 * (the question itself is shown with its buttons); the text unchanged when it asks none.
 */
export function withoutDecisionMarker(text: string): string {
  const found = lastValid(text, "decision", SCHEMA_BY_KIND.decision);
  // A keyword wrapped in a code span or fence leaves its opening backticks behind.
  return found
    ? text
        .slice(0, found.at)
        .replace(/[`~\s]*$/, "")
        .trimEnd()
    : text;
}

/**
 * The answer without its note proposal's marker (the proposal is shown as a card with its own
 * buttons): the text around the last valid `CODEXPI_REMEMBER` and its JSON; unchanged without one.
 */
export function withoutRememberMarker(text: string): string {
  const payloads = markerPayloads(text, MARKER_KEYWORD_BY_KIND.remember);
  for (let i = payloads.length - 1; i >= 0; i--) {
    const p = payloads[i] as { at: number; end: number; value: Record<string, unknown> };
    if (!rememberSchema.safeParse(p.value).success) continue;
    // A keyword or its JSON wrapped in code leaves its backticks (and a fence) on either side.
    const before = text.slice(0, p.at).replace(/[`~\s]*$/, "");
    const after = text.slice(p.end + 1).replace(/^[`~\s]*/, "");
    return [before, after].filter(Boolean).join("\n\n");
  }
  return text;
}

// Occurrences not followed by a well-formed JSON object are dropped here, before any schema check.
function markerPayloads(
  text: string,
  keyword: string,
): Array<{ at: number; end: number; value: Record<string, unknown> }> {
  const payloads: Array<{ at: number; end: number; value: Record<string, unknown> }> = [];
  let quoted: ((start: number, end: number) => boolean) | null = null;
  for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, at + keyword.length)) {
    // A longer identifier containing the keyword (e.g. "MY_CODEXPI_DECISION") is not the marker.
    if (isWordChar(text[at - 1]) || isWordChar(text[at + keyword.length])) continue;
    // A keyword the agent quotes (a file, a failure, another agent's answer) in a code block, a
    // code span or a `>` quote is text: only its own words ask for a decision or a delegation.
    quoted ??= quotedOrCode(text);
    if (quoted(at, at + keyword.length)) continue;
    const start = skipToObject(text, at + keyword.length);
    if (start === null) continue;
    const end = matchingBrace(text, start);
    if (end === null) continue;
    const value = tryParseJson(text.slice(start, end + 1));
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      payloads.push({ at, end, value: value as Record<string, unknown> });
    }
  }
  return payloads;
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

// Agents often wrap the keyword or just its JSON in markdown code ("`KEYWORD` {…}" or
// "KEYWORD\n```json\n{…}\n```"), so backticks, a fence's info string and whitespace may sit between.
function skipToObject(text: string, from: number): number | null {
  let i = from;
  for (;;) {
    const c = text[i];
    if (c === undefined) return null;
    if (c === "{") return i;
    if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith("```", i) || text.startsWith("~~~", i)) {
      i += 3;
      while (i < text.length && /[A-Za-z0-9_+-]/.test(text[i] ?? "")) i++;
    } else if (c === "`") {
      i++;
    } else {
      return null;
    }
  }
}

// A regex cannot balance nested braces, and braces inside JSON strings must not count.
function matchingBrace(text: string, start: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{") {
      depth++;
    } else if (c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return null;
}

function tryParseJson(source: string): unknown {
  try {
    return JSON.parse(source) as unknown;
  } catch {
    return null;
  }
}
