import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import {
  answerDecisionUseCase,
  assertAnswerable,
  decisionOfItem,
  getDecision,
  listDecisions,
  type DecisionView,
} from "../coordination/index.js";
import { listIncidents, retryIncident, type IncidentView } from "../coordination/index.js";
import {
  createSpecialist,
  listSpecialists,
  rebuildSpecialist,
  type SpecialistView,
} from "../coordination/index.js";
import { getPreferences, setPreferences, type NotificationPreferences } from "../coordination/index.js";
import { overview, type Overview } from "../coordination/index.js";
import {
  decisionCard,
  incidentNotice,
  itemOpenedIncident,
  type DecisionCard,
  type IncidentNotice,
} from "../read/index.js";
import { deferred, now, type Deferred } from "./deferred.js";

/** Decisions: what an agent asks (CODEXPI_DECISION) and who answers it. */
export interface DecisionsApi {
  /** The decisions the actor may see (`all`: answered and cancelled ones too). */
  list(actor: Actor, opts?: { all?: boolean }): Promise<DecisionView[]>;
  /** One decision the actor may answer, or not_found. */
  get(actor: Actor, decisionId: string): Promise<DecisionView>;
  /** Refuses a decision that is no longer open (the refusal says whether answered or cancelled). */
  assertAnswerable(
    decision: Pick<DecisionView, "status" | "title" | "options" | "answer" | "answered_by">,
  ): void;
  /** Answers a decision; its conversation resumes (dispatched at once). */
  answer(actor: Actor, decisionId: string, optionIds: string[], custom: string): Promise<DecisionView>;
  /** `answer`, its dispatch left for after the front end's reply. */
  answerDeferred(
    actor: Actor,
    decisionId: string,
    optionIds: string[],
    custom: string,
  ): Promise<Deferred<DecisionView>>;
  /** The decision a turn opened, if any. */
  ofItem(queueId: string): Promise<DecisionView | null>;
  /** What a decision's message shows. */
  card(decisionId: string): Promise<DecisionCard>;
}

/** Incidents, specialists and delegations, notification preferences, the home overview. */
export interface CoordinationApi {
  incidents(actor: Actor, opts?: { all?: boolean }): Promise<IncidentView[]>;
  /** Retries an incident's repair. */
  retryIncident(actor: Actor, incidentId: string): Promise<{ queueId: string }>;
  /** What an incident's notice shows. */
  incidentNotice(incidentId: string): Promise<IncidentNotice | null>;
  /** Whether a turn's failure opened an incident. */
  itemOpenedIncident(queueId: string): Promise<boolean>;
  specialists(actor: Actor): Promise<SpecialistView[]>;
  /** Creates a specialist agent from a form's input (validated here). */
  createSpecialist(actor: Actor, input: unknown, opts?: { shared?: boolean }): Promise<SpecialistView>;
  rebuildSpecialist(actor: Actor, specialistId: string): Promise<SpecialistView>;
  /** The actor's own notification preferences. */
  preferences(userId: string): Promise<NotificationPreferences>;
  setPreferences(actor: Actor, input: unknown): Promise<NotificationPreferences>;
  /** The actor's overview: decisions, incidents, policies. */
  overview(actor: Actor): Promise<Overview>;
}

export function decisionsApi(kernel: Kernel): DecisionsApi {
  const { db } = kernel;
  return {
    list: (actor, opts) => listDecisions(db, actor, opts),
    get: (actor, decisionId) => getDecision(db, actor, decisionId),
    assertAnswerable,
    answer: (actor, id, optionIds, custom) =>
      now(kernel, () => answerDecisionUseCase(kernel, actor, id, optionIds, custom)),
    answerDeferred: (actor, id, optionIds, custom) =>
      deferred(kernel, () => answerDecisionUseCase(kernel, actor, id, optionIds, custom)),
    ofItem: (queueId) => decisionOfItem(db, queueId),
    card: (decisionId) => decisionCard(db, decisionId),
  };
}

export function coordinationApi(kernel: Kernel): CoordinationApi {
  const { db } = kernel;
  return {
    incidents: (actor, opts) => listIncidents(db, actor, opts),
    retryIncident: (actor, incidentId) => retryIncident(kernel, actor, incidentId),
    incidentNotice: (incidentId) => incidentNotice(db, incidentId),
    itemOpenedIncident: (queueId) => itemOpenedIncident(db, queueId),
    specialists: (actor) => listSpecialists(db, actor),
    createSpecialist: (actor, input, opts) => createSpecialist(kernel, actor, input, opts),
    rebuildSpecialist: (actor, id) => rebuildSpecialist(kernel, actor, id),
    preferences: (userId) => getPreferences(db, userId),
    setPreferences: (actor, input) => setPreferences(db, kernel.clock, actor.userId, input),
    overview: (actor) => overview(db, actor),
  };
}
