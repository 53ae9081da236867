/**
 * Ids shared by the views and the Bolt listeners. Action ids are `<aggregate>.<verb>` (DESIGN.md,
 * "Slack surface"); a button's `value` carries the ids it acts on.
 */
export const ACTIONS = {
  decisionOption: "decision.option",
  decisionSubmit: "decision.submit",
  decisionCustom: "decision.custom",
  conversationStop: "conversation.stop",
  incidentRetry: "incident.retry",
  specialistRebuild: "specialist.rebuild",
  runResume: "run.resume",
  runRevise: "run.revise",
  orchDraftApprove: "orch.draft.approve",
  orchDraftReject: "orch.draft.reject",
  orchVerify: "orch.verify",
  orchApprove: "orch.approve",
  orchCorrections: "orch.corrections",
  orchMergeConfirm: "orch.merge.confirm",
  orchMergeCancel: "orch.merge.cancel",
  /** Prefix: one button per project (`ask.choose.<n>`), as Slack wants unique ids in a block. */
  askChoose: "ask.choose",
} as const;

/** Block ids of the blocks listeners or updates need to find again. */
export const BLOCKS = {
  askChoice: "ask.choice",
  conversationRequest: "conversation.request",
  conversationState: "conversation.state",
  conversationActions: "conversation.actions",
  conversationHint: "conversation.hint",
  answerPart: "answer.part",
  answerNote: "answer.note",
  homeRun: "home.run",
  homeDecisions: "home.decisions",
  homeIncidents: "home.incidents",
  homePolicies: "home.policies",
  homeSpecialists: "home.specialists",
  statusSummary: "status.summary",
  statusPaused: "status.paused",
  statusRunning: "status.running",
  projectsList: "projects.list",
  help: "help.commands",
  decisionText: "decision.text",
  decisionChoices: "decision.choices",
  decisionActions: "decision.actions",
  decisionAnswer: "decision.answer",
  decisionCustomInput: "decision.custom.input",
  incidentText: "incident.text",
  incidentActions: "incident.actions",
  incidentsList: "incidents.list",
  specialistsList: "specialists.list",
  specialistName: "specialist.add.name",
  specialistDescription: "specialist.add.description",
  specialistCapabilities: "specialist.add.capabilities",
  notifyPreferences: "notify.preferences",
  runState: "run.state",
  runSteps: "run.steps",
  runError: "run.error",
  runRepair: "run.repair",
  runReport: "run.report",
  runActions: "run.actions",
  runVerdict: "run.verdict",
  runBlocked: "run.blocked",
  runHint: "run.hint",
  runPlan: "run.plan",
  orchHead: "orch.head",
  orchState: "orch.state",
  orchError: "orch.error",
  orchDraft: "orch.draft",
  orchActions: "orch.actions",
  orchStep: "orch.step",
  orchResult: "orch.result",
  orchList: "orch.list",
  orchListActions: "orch.list.actions",
  orchName: "orch.create.name",
  orchRequest: "orch.create.request",
  orchCriteria: "orch.create.criteria",
  orchTests: "orch.create.tests",
  orchFeedback: "orch.feedback",
} as const;

/** Callback ids of the modals (`view_submission` routing). */
export const CALLBACKS = {
  specialistAdd: "specialist.add",
  runStart: "run.start",
  policyEdit: "policy.edit",
  orchCreate: "orch.create",
  runRevise: "run.revise",
  decisionCustom: "decision.custom",
  orchReject: "orch.reject",
  orchCorrections: "orch.corrections",
} as const;

/**
 * Action ids of modal inputs: no listener is registered for them, `view_submission` reads them
 * back from `view.state.values[blockId][actionId]`.
 */
export const INPUTS = {
  decisionCustom: "decision.custom.text",
  specialistName: "specialist.add.name.value",
  specialistDescription: "specialist.add.description.value",
  specialistCapabilities: "specialist.add.capabilities.value",
  runPlan: "run.plan.value",
} as const;
