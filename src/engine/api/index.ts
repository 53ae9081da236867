import type { Kernel } from "../kernel.js";
import { approvalsApi, type ApprovalsApi } from "./approvals.js";
import { coordinationApi, decisionsApi, type CoordinationApi, type DecisionsApi } from "./coordination.js";
import { conversationsApi, type ConversationsApi } from "./conversations.js";
import { eventsApi, type EventsApi } from "./events.js";
import { filesApi, type FilesApi } from "./files.js";
import { forgeApi, type ForgeApi } from "./forge.js";
import { lanesApi, type LanesApi } from "./lanes.js";
import { orchestrationsApi, type OrchestrationsApi } from "./orchestrations.js";
import { policiesApi, type PoliciesApi } from "./policies.js";
import { projectsApi, type ProjectsApi } from "./projects.js";
import { runsApi, type RunsApi } from "./runs.js";
import { usageApi, type UsageApi } from "./usage.js";
import { Health } from "./health.js";
import { schedulesApi, type SchedulesApi } from "./schedules.js";
import { setupApi, type SetupApi } from "./setup.js";
import { auditApi, type AuditApi } from "./audit.js";
import { memoryApi, type MemoryApi } from "./memory.js";
import { audited } from "./audited.js";
import * as specs from "./auditSpecs.js";

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
  /** Files crossing between the bot's machine and worker hosts. */
  files: FilesApi;
  /** Usage (tokens, agent time, cost) and budgets (issue 21). */
  usage: UsageApi;
  schedules: SchedulesApi;
  /** A project's setup: its command, its secrets, a run in a direct project's checkout (issue 31). */
  setup: SetupApi;
  /** The audit trail (admins). */
  audit: AuditApi;
  /** A project's notes for its agents (issue 34). */
  memory: MemoryApi;
  /** What the forge front end asks of the engine (issue 33). */
  forge: ForgeApi;
  /** The admin health endpoint's report and metrics. */
  health: Pick<Health, "report" | "metrics">;
}

/**
 * The API of one process's engine. Every use case that changes something is recorded in the audit
 * trail on its way through (./auditSpecs.ts says which and how).
 */
export function createEngineApi(kernel: Kernel): EngineApi {
  return {
    conversations: audited(kernel, conversationsApi(kernel), specs.conversationsAudit),
    projects: audited(kernel, projectsApi(kernel), specs.projectsAudit),
    decisions: audited(kernel, decisionsApi(kernel), specs.decisionsAudit),
    approvals: audited(kernel, approvalsApi(kernel), specs.approvalsAudit),
    coordination: audited(kernel, coordinationApi(kernel), specs.coordinationAudit),
    runs: audited(kernel, runsApi(kernel), specs.runsAudit),
    orchestrations: audited(kernel, orchestrationsApi(kernel), specs.orchestrationsAudit),
    lanes: audited(kernel, lanesApi(kernel), specs.lanesAudit),
    policies: audited(kernel, policiesApi(kernel), specs.policiesAudit),
    events: eventsApi(kernel),
    files: filesApi(kernel),
    usage: audited(kernel, usageApi(kernel), specs.usageAudit),
    schedules: audited(kernel, schedulesApi(kernel), specs.schedulesAudit),
    setup: audited(kernel, setupApi(kernel), specs.setupAudit),
    audit: auditApi(kernel),
    memory: audited(kernel, memoryApi(kernel), specs.memoryAudit),
    forge: audited(kernel, forgeApi(kernel), specs.forgeAudit),
    health: new Health(kernel),
  };
}
