import type { ApprovalsApi } from "./approvals.js";
import type { AuditSpecs } from "./audited.js";
import type { CoordinationApi, DecisionsApi } from "./coordination.js";
import type { ConversationsApi } from "./conversations.js";
import type { ForgeApi } from "./forge.js";
import type { LanesApi } from "./lanes.js";
import type { MemoryApi } from "./memory.js";
import type { OrchestrationsApi } from "./orchestrations.js";
import type { PoliciesApi } from "./policies.js";
import type { ProjectsApi } from "./projects.js";
import type { RunsApi } from "./runs.js";
import type { SchedulesApi } from "./schedules.js";
import type { SetupApi } from "./setup.js";
import type { UsageApi } from "./usage.js";

// What the audit trail records of each API object's changes (reads are not recorded). A use case
// added to an API that changes something gets a line here.

const conv = (id: string) => `conversation:${id}`;
const project = (name: string | null) => (name === null ? "install" : `project:${name}`);
const json = (v: unknown) => JSON.stringify(v) ?? null;

export const conversationsAudit: AuditSpecs<ConversationsApi> = {
  ask: {
    action: "conversation.ask",
    target: (_a, name) => project(name),
    detail: (_a, _n, prompt) => prompt,
  },
  followUp: {
    action: "conversation.follow_up",
    target: (_a, c) => conv(c.conversation.id),
    project: (_a, c) => c.project.name,
    detail: (_a, _c, prompt) => prompt,
  },
  stop: { action: "conversation.stop", target: (_a, id) => conv(id) },
};

export const projectsAudit: AuditSpecs<ProjectsApi> = {
  add: { action: "project.add", target: (_a, p) => project(p.name), detail: (_a, p) => json({ ...p }) },
  update: { action: "project.update", target: (_a, n) => project(n), detail: (_a, _n, c) => json(c) },
  remove: { action: "project.remove", target: (_a, n) => project(n) },
  setVisibility: { action: "project.visibility", target: (_a, n) => project(n), detail: (_a, _n, v) => v },
  setSteer: { action: "project.steer", target: (_a, n) => project(n), detail: (_a, _n, on) => String(on) },
  setThreadPrompters: {
    action: "project.thread_prompters",
    target: (_a, n) => project(n),
    detail: (_a, _n, who) => who,
  },
  setWorkspaceMode: { action: "project.workspace", target: (_a, n) => project(n), detail: (_a, _n, m) => m },
  setPrompter: {
    action: "project.prompter",
    target: (_a, n) => project(n),
    detail: (_a, _n, user, allowed) => `${user} ${allowed ? "allowed" : "disallowed"}`,
  },
  share: {
    action: "project.share",
    target: (_a, n) => project(n),
    detail: (_a, _n, channel, prompt) => `${channel} ${prompt ? "prompt" : "read"}`,
  },
  unshare: { action: "project.unshare", target: (_a, n) => project(n), detail: (_a, _n, channel) => channel },
  setNetworkMode: { action: "project.network", target: (_a, n) => project(n), detail: (_a, _n, m) => m },
  allowHosts: {
    action: "project.allow_host",
    target: (_a, n) => project(n),
    detail: (_a, _n, h) => h.join(" "),
  },
  denyHosts: {
    action: "project.deny_host",
    target: (_a, n) => project(n),
    detail: (_a, _n, h) => h.join(" "),
  },
  setForge: { action: "project.forge", target: (_a, n) => project(n), detail: (_a, _n, c) => json(c) },
  // The token itself is never kept: only that one was stored.
  setForgeToken: { action: "project.forge_token", target: (_a, n) => project(n) },
  removeForgeToken: { action: "project.forge_token_removed", target: (_a, n) => project(n) },
  move: {
    action: "project.move",
    target: (_a, n) => project(n),
    detail: (_a, _n, to) => to ?? "coordinator",
  },
};

export const decisionsAudit: AuditSpecs<DecisionsApi> = {
  answer: {
    action: "decision.answer",
    target: (_a, id) => `decision:${id}`,
    detail: (_a, _id, options, custom) => json({ options, custom }),
  },
  answerDeferred: {
    action: "decision.answer",
    target: (_a, id) => `decision:${id}`,
    detail: (_a, _id, options, custom) => json({ options, custom }),
  },
};

export const approvalsAudit: AuditSpecs<ApprovalsApi> = {
  answer: {
    action: "approval.answer",
    target: (_a, id) => `approval:${id}`,
    detail: (_a, _id, ans) => json(ans),
  },
};

export const coordinationAudit: AuditSpecs<CoordinationApi> = {
  retryIncident: { action: "incident.retry", target: (_a, id) => `incident:${id}` },
  createSpecialist: {
    action: "specialist.create",
    target: () => "specialist:new",
    detail: (_a, i) => json(i),
  },
  rebuildSpecialist: { action: "specialist.rebuild", target: (_a, id) => `specialist:${id}` },
  setPreferences: { action: "notify.set", target: (a) => `user:${a.userId}`, detail: (_a, i) => json(i) },
};

export const runsAudit: AuditSpecs<RunsApi> = {
  start: { action: "run.start", target: () => "run:new", detail: (_a, plan) => json(plan) },
  resume: { action: "run.resume", target: (_a, o) => `run:${o?.runId ?? "active"}` },
  cancel: { action: "run.cancel", target: (_a, id) => `run:${id ?? "active"}` },
};

export const orchestrationsAudit: AuditSpecs<OrchestrationsApi> = {
  create: { action: "orchestration.create", target: () => "orchestration:new", detail: (_a, i) => json(i) },
  approveDraft: { action: "orchestration.approve_draft", target: (_a, id) => `orchestration:${id}` },
  rejectDraft: { action: "orchestration.reject_draft", target: (_a, id) => `orchestration:${id}` },
  verify: { action: "orchestration.verify", target: (_a, id) => `orchestration:${id}` },
  requestCorrections: { action: "orchestration.corrections", target: (_a, id) => `orchestration:${id}` },
  approveRevision: { action: "orchestration.approve_revision", target: (_a, id) => `orchestration:${id}` },
  merge: { action: "orchestration.merge", target: (_a, id) => `orchestration:${id}` },
  declineMerge: { action: "orchestration.decline_merge", target: (_a, id) => `orchestration:${id}` },
};

export const lanesAudit: AuditSpecs<LanesApi> = {
  discard: { action: "lane.discard", target: (_a, id) => conv(id) },
  merge: { action: "lane.merge", target: (_a, id) => conv(id) },
  push: { action: "lane.push", target: (_a, id) => conv(id) },
  pushToHead: { action: "lane.push_to_head", target: (_a, id) => conv(id), detail: (_a, _id, head) => head },
  openPullRequest: { action: "lane.pull_request", target: (_a, id) => conv(id) },
  askToMerge: { action: "lane.ask_to_merge", target: (_a, id) => conv(id) },
};

export const policiesAudit: AuditSpecs<PoliciesApi> = {
  update: { action: "policy.update", target: () => "policy:global", detail: (_a, i) => json(i) },
  setProjectLimit: {
    action: "policy.project_limit",
    target: (_a, n) => project(n),
    detail: (_a, _n, max) => String(max ?? "global"),
  },
};

export const schedulesAudit: AuditSpecs<SchedulesApi> = {
  add: {
    action: "schedule.add",
    target: (_a, input) => project(input.project),
    detail: (_a, i) => `${i.cron} ${i.tz ?? ""} ${i.prompt}`,
  },
  pause: { action: "schedule.pause", target: (_a, id) => `schedule:${id}` },
  resume: { action: "schedule.resume", target: (_a, id) => `schedule:${id}` },
  remove: { action: "schedule.remove", target: (_a, id) => `schedule:${id}` },
};

/** A budget's target: a project's, or a person's (`user:<Slack id>`). */
const budgetTarget = (t: { scope: "project" | "user"; name: string }) =>
  t.scope === "project" ? project(t.name) : `user:${t.name}`;

export const usageAudit: AuditSpecs<UsageApi> = {
  setBudget: {
    action: "budget.set",
    target: (_a, t) => budgetTarget(t),
    project: (_a, t) => (t.scope === "project" ? t.name : null),
    detail: (_a, _t, limits) => json(limits),
  },
  clearBudget: {
    action: "budget.clear",
    target: (_a, t) => budgetTarget(t),
    project: (_a, t) => (t.scope === "project" ? t.name : null),
  },
};

export const setupAudit: AuditSpecs<SetupApi> = {
  setCommand: { action: "project.setup", target: (_a, n) => project(n), detail: (_a, _n, c) => c ?? "none" },
  // A secret's name is kept, never its value.
  setSecret: { action: "project.setup_secret", target: (_a, n) => project(n), detail: (_a, _n, key) => key },
  unsetSecret: {
    action: "project.setup_secret_removed",
    target: (_a, n) => project(n),
    detail: (_a, _n, key) => key,
  },
  runDirect: { action: "project.setup_run", target: (_a, n) => project(n) },
};

/** A note's target: its id (its project is found from it, see audited.ts). */
const note = (id: string) => `memory:${id}`;

export const memoryAudit: AuditSpecs<MemoryApi> = {
  add: { action: "memory.add", target: (_a, n) => project(n), detail: (_a, _n, text) => text },
  keep: { action: "memory.keep", target: (_a, id) => note(id) },
  discard: { action: "memory.discard", target: (_a, id) => note(id) },
  edit: { action: "memory.edit", target: (_a, id) => note(id), detail: (_a, _id, text) => text },
  forget: { action: "memory.forget", target: (_a, id) => note(id) },
};

// The forge front end's webhook secret: only that one was stored, never the secret itself.
export const forgeAudit: AuditSpecs<ForgeApi> = {
  setWebhookSecret: { action: "project.forge_webhook_secret", target: (_a, n) => project(n) },
  removeWebhookSecret: { action: "project.forge_webhook_secret_removed", target: (_a, n) => project(n) },
};
