import type { Kernel } from "../kernel.js";
import { approvalsApi, type ApprovalsApi } from "./approvals.js";
import { coordinationApi, decisionsApi, type CoordinationApi, type DecisionsApi } from "./coordination.js";
import { conversationsApi, type ConversationsApi } from "./conversations.js";
import { eventsApi, type EventsApi } from "./events.js";
import { lanesApi, type LanesApi } from "./lanes.js";
import { orchestrationsApi, type OrchestrationsApi } from "./orchestrations.js";
import { policiesApi, type PoliciesApi } from "./policies.js";
import { projectsApi, type ProjectsApi } from "./projects.js";
import { runsApi, type RunsApi } from "./runs.js";
import { usageApi, type UsageApi } from "./usage.js";
import { Health } from "./health.js";

// The one way in: the bot and the CLI call the engine through these objects (a lint test refuses
// any other import of src/engine from src/bot or src/cli). Each method is a use case that takes
// the acting person where one acts, checks their rights, and answers a result; no database
// handle and no engine internals cross it. Process-level building blocks (opening the database,
// the tick, the worker) are in ./runtime.ts; the types front ends render are in ./types.ts.

export interface EngineApi {
  conversations: ConversationsApi;
  projects: ProjectsApi;
  decisions: DecisionsApi;
  approvals: ApprovalsApi;
  coordination: CoordinationApi;
  runs: RunsApi;
  orchestrations: OrchestrationsApi;
  lanes: LanesApi;
  policies: PoliciesApi;
  events: EventsApi;
  /** Usage (tokens, agent time, cost) and budgets (issue 21). */
  usage: UsageApi;
  /** The admin health endpoint's report and metrics. */
  health: Pick<Health, "report" | "metrics">;
}

/** The API of one process's engine. */
export function createEngineApi(kernel: Kernel): EngineApi {
  return {
    conversations: conversationsApi(kernel),
    projects: projectsApi(kernel),
    decisions: decisionsApi(kernel),
    approvals: approvalsApi(kernel),
    coordination: coordinationApi(kernel),
    runs: runsApi(kernel),
    orchestrations: orchestrationsApi(kernel),
    lanes: lanesApi(kernel),
    policies: policiesApi(kernel),
    events: eventsApi(kernel),
    usage: usageApi(kernel),
    health: new Health(kernel),
  };
}
