/** Why a prompt was queued; decides its priority and whether it is background work. */
export type OriginKind =
  | "repair"
  | "decision_answer"
  | "specialist_result"
  | "user"
  | "delegation"
  | "orchestration"
  | "run_stage"
  | "specialist_bootstrap";

/** Higher runs first; ties go by insertion sequence. */
export const PRIORITY = {
  repair: 100,
  decision_answer: 80,
  specialist_result: 80,
  user: 60,
  delegation: 50,
  orchestration: 50,
  run_stage: 40,
  specialist_bootstrap: 20,
} as const satisfies Record<OriginKind, number>;

/** Work nobody is waiting on at the keyboard: it starts only inside the background window. */
const BACKGROUND = {
  repair: true,
  decision_answer: false,
  specialist_result: false,
  user: false,
  delegation: false,
  orchestration: false,
  run_stage: true,
  specialist_bootstrap: true,
} as const satisfies Record<OriginKind, boolean>;

export const priorityOf = (origin: OriginKind): number => PRIORITY[origin];

/** Unknown origins (rows written by a newer version) are treated as foreground user work. */
export const isBackground = (origin: string): boolean =>
  (BACKGROUND as Record<string, boolean>)[origin] ?? false;
