import { isMessageKey, t, type Locale, type MessageKey } from "./index.js";
import type { Params } from "./message.js";

// A queue item's (or an orchestration's) failure text is read in many languages (each Slack reader's, the engine's for
// prompts) long after it was written, so the engine stores the failures it describes itself as a
// note: the catalog key and its parameters, no language. Readers render the note with
// `failureText`; any other text (Codex's own message, rows written before notes existed) is data
// and passes through unchanged.

/** The failures the engine describes itself (catalog keys). */
export type FailureKey =
  | "worker.interrupted"
  | "worker.interrupted_detail"
  | "worker.watchdog_idle"
  | "worker.watchdog_turn"
  | "worker.watchdog_retrying"
  | "worker.model_unreachable"
  | "worker.cancelled"
  | "worker.cancelled_queued"
  | "worker.thread_busy"
  | "worker.codex_missing"
  | "worker.jail_missing"
  | "worker.spawn_failed"
  | "worker.model_credential"
  | "setup.failed_exit"
  | "setup.failed_timeout"
  | "setup.failed_unusable"
  | "orch.worktree_missing"
  | "orch.verification_interrupted"
  | "reason.orch_main_detached"
  | "reason.orch_git_failed"
  | "reason.orch_setup_failed"
  | "reason.orch_main_dirty"
  | "reason.orch_main_moved"
  | "reason.orch_merge_conflict";

const KEYS: ReadonlySet<string> = new Set<FailureKey>([
  "worker.interrupted",
  "worker.interrupted_detail",
  "worker.watchdog_idle",
  "worker.watchdog_turn",
  "worker.watchdog_retrying",
  "worker.model_unreachable",
  "worker.cancelled",
  "worker.cancelled_queued",
  "worker.thread_busy",
  "worker.codex_missing",
  "worker.jail_missing",
  "worker.spawn_failed",
  "worker.model_credential",
  "setup.failed_exit",
  "setup.failed_timeout",
  "setup.failed_unusable",
  "orch.worktree_missing",
  "orch.verification_interrupted",
  "reason.orch_main_detached",
  "reason.orch_git_failed",
  "reason.orch_setup_failed",
  "reason.orch_main_dirty",
  "reason.orch_main_moved",
  "reason.orch_merge_conflict",
]);

const PREFIX = "codexpi:";
const NOTE = /^codexpi:([a-z_.]+)(?: (\{.*\}))?$/s;

/** The stored, language-free form of a failure the engine describes: `codexpi:<key> {params}`. */
export function failureNote(key: FailureKey, params: Params = {}): string {
  return Object.keys(params).length ? `${PREFIX}${key} ${JSON.stringify(params)}` : `${PREFIX}${key}`;
}

/** A stored failure in `locale`: a note rendered from the catalog, any other text unchanged. */
export function failureText(locale: Locale, stored: string): string;
export function failureText(locale: Locale, stored: string | null | undefined): string | null;
export function failureText(locale: Locale, stored: string | null | undefined): string | null {
  if (stored == null) return null;
  const m = NOTE.exec(stored);
  if (!m || !KEYS.has(m[1] as string)) return stored;
  return t(locale, m[1] as FailureKey, m[2] ? paramsOf(m[2]) : {});
}

function paramsOf(json: string): Params {
  try {
    const value = JSON.parse(json) as unknown;
    if (!value || typeof value !== "object") return {};
    return Object.fromEntries(
      Object.entries(value).filter(
        (e): e is [string, string | number] => typeof e[1] === "string" || typeof e[1] === "number",
      ),
    );
  } catch {
    return {};
  }
}

const NEXT_STEPS = {
  model_unreachable: "failure.next.model_unreachable",
  watchdog: "failure.next.watchdog",
  codex_failed: "failure.next.codex_failed",
  interrupted: "failure.next.interrupted",
  spawn_failed: "failure.next.spawn_failed",
  thread_busy: "failure.next.thread_busy",
  setup_failed: "failure.next.setup_failed",
} as const;

/**
 * What to try after a failure, in `locale`, by its kind: a model Codex could not reach (told by
 * its note), else the item's error code; null for a kind with nothing to try (a cancel).
 */
export function failureNextStep(
  locale: Locale,
  stored: string | null | undefined,
  errorCode: string | null | undefined,
): string | null {
  const kind = isModelUnreachable(stored) ? "model_unreachable" : errorCode;
  const key = kind && Object.hasOwn(NEXT_STEPS, kind) ? NEXT_STEPS[kind as keyof typeof NEXT_STEPS] : null;
  return key ? t(locale, key) : null;
}

/**
 * The catalog key of the sentence a failure's code adds to its text (`failure.<code>`), or null
 * when the text is the engine's own note: a note already names the cause, and a second sentence
 * from the code would tell another (a model Codex could not reach is not a turn "over its time
 * limit", though the watchdog that ended it gives it the code `watchdog`). One cause per message.
 */
export function failureCodeKey(
  stored: string | null | undefined,
  errorCode: string | null | undefined,
): MessageKey | null {
  const note = NOTE.exec(stored ?? "");
  if (note && KEYS.has(note[1] as string)) return null;
  const key = `failure.${errorCode ?? ""}`;
  return isMessageKey(key) ? key : null;
}

/** Whether a stored failure says Codex could not reach its model (its own words follow in the note). */
const isModelUnreachable = (stored: string | null | undefined): boolean =>
  NOTE.exec(stored ?? "")?.[1] === "worker.model_unreachable";

/**
 * Whether a stored failure's cause is the model (Codex could not reach it, or it kept failing
 * while Codex retried): a cause a later turn that completes shows gone.
 */
export function isModelFailure(stored: string | null | undefined): boolean {
  const key = NOTE.exec(stored ?? "")?.[1];
  return key === "worker.model_unreachable" || key === "worker.watchdog_retrying";
}
