import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DecisionView } from "../../src/engine/coordination/decisions.js";
import type { IncidentView } from "../../src/engine/coordination/incidents.js";
import type { SpecialistView } from "../../src/engine/coordination/specialists.js";
import type { OrchestrationView, VerificationRecord } from "../../src/engine/orchestrations/index.js";
import type { RunDetail, RunStepView } from "../../src/engine/runs/index.js";
import { clearRegisteredSecrets, registerSecrets } from "../../src/redaction.js";
import { errorView, projectsView, statusView, type StatusInput } from "../../src/views/commands.js";
import { agentAnswer, conversationRoot, type ConversationRootInput } from "../../src/views/conversation.js";
import {
  decisionCustomModal,
  decisionMessage,
  decisionsView,
  incidentMessage,
  incidentsView,
  specialistAddErrors,
  specialistsView,
} from "../../src/views/coordination.js";
import { homeView } from "../../src/views/home.js";
import {
  draftMessages,
  feedbackModal,
  orchestrationFormErrors,
  orchestrationRoot,
  orchestrationsView,
  stepMessages,
  verificationMessages,
} from "../../src/views/orchestrations.js";
import {
  blockedInputOf,
  runBlockedMessage,
  runDetailView,
  runFinalReport,
  runPlanErrors,
  runReviseModal,
  runRootMessage,
  runVerdictMessages,
} from "../../src/views/runs.js";
import { hides, OWN_BOT_TOKEN, OWN_SIGNING_SECRET, textWithSecret } from "../support/secrets.js";

// Every view that shows text written by an agent or a person, fed a secret in each such field: the
// secret must not be anywhere in what would be posted (texts, blocks, values, files, modals).

const root: ConversationRootInput = {
  conversationId: "c1",
  projectName: "demo",
  prompt: "hello",
  userId: "U0OWNER",
  status: "queued",
};

const decision = (x: string): DecisionView => ({
  id: "dec-1",
  conversation_id: "conv-1",
  queue_id: "q-1",
  user_id: "U0ALICE",
  title: x,
  question: x,
  options: [
    { id: x, label: x },
    { id: "b", label: "B" },
  ],
  allow_multiple: false,
  allow_custom: true,
  status: "OPEN",
  answer: null,
  response_queue_id: null,
  created_at: 1,
});

const incident = (x: string): IncidentView => ({
  id: "inc-1",
  status: "OPEN",
  auto_repair: true,
  error: x,
  error_code: "codex_failed",
  conversation_id: "conv-1",
  project_id: "p-1",
  project_name: "demo",
  repair_project_name: null,
  repair_conversation_id: null,
  resolution: x,
  created_at: 1,
});

const specialist = (x: string): SpecialistView => ({
  id: "spec-1",
  name: "Designer",
  description: x,
  capabilities: ["design.ux"],
  summary: x,
  status: "FAILED",
  error: x,
  owner_id: "U0ALICE",
  project_id: "p-9",
  full_access: false,
  workspace: "/data/specialists/designer",
  bootstrap_conversation_id: null,
  bootstrap_queue_id: null,
});

const status = (x: string): StatusInput => ({
  queued: 0,
  running: [{ projectName: "demo", title: x, activity: x, startedAt: 1 }],
  limits: {
    max_concurrent: 2,
    load_pause_percent: 150,
    memory_pause_percent: 90,
    background_start_hour: 0,
    background_end_hour: 0,
  },
  host: { loadPercent: 1, memoryPercent: 1 },
  paused: [],
  now: 10,
});

const step = (x: string, over: Partial<RunStepView> = {}): RunStepView => ({
  id: "step-1",
  order: 1,
  phase: 1,
  phase_label: "Mesurer",
  title: x,
  summary: x,
  risk: "code",
  target: "demo",
  aliases: [],
  project_id: "p1",
  project_name: "demo",
  prompt: x,
  status: "BLOCKED",
  conversation_id: null,
  queue_id: null,
  attempts: 1,
  feedback: x,
  finished_at: null,
  ...over,
});

const run = (x: string, over: Partial<RunDetail> = {}): RunDetail => ({
  id: "run-1",
  owner_id: "U0OWNER",
  status: "BLOCKED",
  stage: "IDLE",
  error: x,
  correction_round: 0,
  active_queue_id: null,
  master_project_id: "m1",
  master_conversation_id: "c0",
  current_step_id: "step-1",
  blocked_stage: "SUPERVISOR",
  block_code: "master_block",
  final_report: x,
  created_at: 1,
  updated_at: 1,
  finished_at: null,
  steps: [step(x)],
  events: [],
  self_repair: {
    id: "sr",
    status: "NEEDS_USER",
    step_id: "step-1",
    blocked_stage: "SUPERVISOR",
    block_code: "master_block",
    error: x,
    project_id: "s",
    conversation_id: "c",
    queue_id: "q",
    feedback: x,
    prompt_addendum: x,
    created_at: 1,
    finished_at: 2,
  },
  ...over,
});

const orchestration = (x: string, over: Partial<OrchestrationView> = {}): OrchestrationView => ({
  id: "11111111-2222-3333-4444-555555555555",
  project_id: "p1",
  project_name: "demo",
  owner_id: "UOWNER",
  name: x,
  request: x,
  acceptance_criteria: [x],
  tests: [["node", "-e", x]],
  engine: "codex",
  status: "DRAFT_REVIEW",
  draft: `Spécification\n\n${x}`,
  draft_version: 1,
  draft_hash: "a".repeat(64),
  base_branch: "main",
  branch: null,
  worktree_path: null,
  conversation_id: null,
  queue_id: null,
  verified_revision: null,
  approved_revision: null,
  merged_revision: null,
  merge_confirmation_required: true,
  verification: null,
  last_error: x,
  events: [],
  created_at: 1,
  updated_at: 1,
  ...over,
});

const record = (x: string): VerificationRecord => ({
  revision: "0123456789abcdef0123456789abcdef01234567",
  passed: false,
  results: [
    {
      command: `node -e ${x}`,
      exitCode: 1,
      timedOut: false,
      passed: false,
      output: `${"log line\n".repeat(50)}${x}\n`,
      durationMs: 120,
    },
  ],
});

const event = (kind: string, x: string) => ({
  kind,
  queue_id: null,
  detail: {
    version: 1,
    draft_version: 1,
    feedback: x,
    answer: x,
    error: x,
    output: x,
    reason: "conflict",
    detail: x,
  },
  created_at: 1,
});

/** Each view fed `x` in every field an agent or a person writes. */
const VIEWS: Record<string, (x: string) => unknown> = {
  "conversation root: the prompt": (x) => conversationRoot("fr", { ...root, prompt: x }),
  "conversation root: the activity": (x) =>
    conversationRoot("fr", { ...root, status: "running", activity: x }),
  "conversation root: the failure": (x) =>
    conversationRoot("en", { ...root, status: "failed", error: x, errorCode: "codex_failed" }),
  "conversation answer": (x) => agentAnswer("fr", x),
  "conversation answer split over messages": (x) =>
    agentAnswer("fr", `${"un mot ".repeat(300)}\n${x}\n${"fin ".repeat(300)}`, { maxMessageChars: 500 }),
  "conversation answer uploaded as a file": (x) => agentAnswer("en", `${"line of text\n".repeat(1100)}${x}`),
  "error text": (x) => errorView("fr", { code: "invalid", message: x, params: { detail: x } }),
  "status: running agents": (x) => statusView("fr", status(x)),
  "project list": (x) =>
    projectsView("fr", [
      {
        name: "demo",
        path: `/srv/${x}`,
        ownerId: "U0OWNER",
        fullAccess: false,
        mergeConfirmation: false,
        channelId: null,
        role: "project",
      },
    ]),
  "incident message": (x) => incidentMessage("fr", incident(x)),
  "incident list": (x) => incidentsView("en", [incident(x)]),
  "decision message": (x) => decisionMessage("fr", decision(x), { projectName: "demo" }),
  "decision with checkboxes": (x) => decisionMessage("fr", { ...decision(x), allow_multiple: true }),
  "decision list": (x) => decisionsView("en", [decision(x)]),
  "decision free-text modal": (x) => decisionCustomModal("fr", decision(x)),
  "specialist list": (x) => specialistsView("fr", [specialist(x)]),
  "specialist form errors": (x) => specialistAddErrors("fr", { fields: ["name"] }, x),
  "App Home": (x) =>
    homeView("fr", {
      decisions: [{ id: "d", title: x, question: x, projectName: "demo" }],
      incidents: [{ id: "i", status: "OPEN", projectName: "demo", error: x }],
      runtime_policies: { global: status(x).limits, projects: [] },
      specialists: [{ id: "s", name: x, status: "ACTIVE", capabilities: ["a"] }],
      run: { status: "RUNNING", stage: "AGENT", title: x },
    }),
  "run root": (x) => runRootMessage("fr", run(x)),
  "run blocked": (x) => runBlockedMessage("fr", blockedInputOf(run(x))),
  "run verdict": (x) =>
    runVerdictMessages("fr", {
      decision: "correct",
      feedback: x,
      subject: { kind: "step", order: 1, title: x, projectName: "demo" },
    }),
  "run final report": (x) => runFinalReport("en", x),
  "run detail": (x) => runDetailView("fr", run(x)),
  "run completed detail": (x) =>
    runDetailView(
      "en",
      run(x, { status: "COMPLETED", stage: "IDLE", blocked_stage: null, block_code: null }),
    ),
  "run revise modal": (x) => runReviseModal("fr", { runId: "run-1", steps: [step(x)] }),
  "run plan errors": (x) => runPlanErrors(x),
  "orchestration root": (x) => orchestrationRoot("fr", orchestration(x)),
  "orchestration list": (x) => orchestrationsView("en", [orchestration(x)]),
  "orchestration draft": (x) => draftMessages("fr", orchestration(x)),
  "orchestration verification": (x) => verificationMessages("fr", record(x), "head"),
  "orchestration feedback modal": (x) => feedbackModal("fr", "reject", orchestration(x)),
  "orchestration form errors": (x) => orchestrationFormErrors("fr", [], x),
  ...Object.fromEntries(
    [
      "draft.rejected",
      "agent.finished",
      "agent.failed",
      "corrections.requested",
      "verification.failed",
      "merge.failed",
      "prepare.failed",
    ].map((kind) => [
      `orchestration step ${kind}`,
      (x: string) => stepMessages("fr", orchestration(x, { draft_version: 2 }), event(kind, x)),
    ]),
  ),
};

const CANARY = "CANARY7391";

describe("views never show a secret", () => {
  beforeAll(() => registerSecrets([OWN_BOT_TOKEN, OWN_SIGNING_SECRET]));
  afterAll(() => clearRegisteredSecrets());

  // The positive control: each view does show the field it is fed, so the property below can fail.
  it.each(Object.keys(VIEWS))("%s shows the text it is given", (name) => {
    expect(JSON.stringify(VIEWS[name]!(`texte ${CANARY} texte`))).toContain(CANARY);
  });

  it.each(Object.keys(VIEWS))("%s redacts any secret in that text", (name) => {
    const view = VIEWS[name]!;
    fc.assert(
      fc.property(textWithSecret(), ({ secret, text }) => hides(JSON.stringify(view(text)), secret)),
      { numRuns: 60 },
    );
  });

  it("a secret anywhere in a long answer is caught, also where the answer is split into sections or messages", () => {
    fc.assert(
      fc.property(fc.nat({ max: 9000 }), textWithSecret(), (pad, { secret, text }) => {
        const answer = agentAnswer("fr", `${"x".repeat(pad)}${text}${"\ny".repeat(200)}`, {
          maxMessageChars: 700,
        });
        return hides(JSON.stringify(answer), secret);
      }),
      { numRuns: 150 },
    );
  });
});
