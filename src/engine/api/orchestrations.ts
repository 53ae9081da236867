import type { Kernel } from "../kernel.js";
import type { Actor } from "../projects/index.js";
import {
  approveDraft,
  approveRevision,
  createOrchestration,
  declineMerge,
  getOrchestration,
  listOrchestrations,
  mergeOrchestration,
  rejectDraft,
  requestCorrections,
  verifyOrchestration,
  type OrchestrationView,
} from "../orchestrations/index.js";
import { defaultDeps } from "../orchestrations/index.js";
import { orchestrationThreadView } from "../read/index.js";
import type { OnCreated } from "../database.js";

type ThreadView = Awaited<ReturnType<typeof orchestrationThreadView>>;

/** Guarded orchestrations: a draft, an agent in its own clone, verification, a confirmed merge. */
export interface OrchestrationsApi {
  /** Creates an orchestration from a form's input (validated here) in a project the actor may prompt. */
  create(actor: Actor, input: unknown, opts?: { onCreated?: OnCreated }): Promise<OrchestrationView>;
  get(actor: Actor, id: string): Promise<OrchestrationView>;
  list(actor: Actor): Promise<OrchestrationView[]>;
  approveDraft(actor: Actor, id: string, hash: string): Promise<OrchestrationView>;
  rejectDraft(actor: Actor, id: string, feedback: string): Promise<OrchestrationView>;
  /** Runs the acceptance tests in the clone (in the jail). */
  verify(actor: Actor, id: string): Promise<OrchestrationView>;
  requestCorrections(actor: Actor, id: string, feedback: string): Promise<OrchestrationView>;
  approveRevision(actor: Actor, id: string, revision: string): Promise<OrchestrationView>;
  /** Merges the approved revision into the project (`confirm`: the person confirmed it). */
  merge(actor: Actor, id: string, opts: { confirm: boolean }): Promise<OrchestrationView>;
  declineMerge(actor: Actor, id: string): Promise<OrchestrationView>;
  /** What an orchestration's thread shows. */
  threadView(id: string): Promise<ThreadView>;
}

export function orchestrationsApi(kernel: Kernel): OrchestrationsApi {
  const deps = () => defaultDeps(kernel.config);
  return {
    create: (actor, input, opts) => createOrchestration(kernel, actor, input, deps(), opts),
    get: (actor, id) => getOrchestration(kernel, actor, id),
    list: (actor) => listOrchestrations(kernel, actor),
    approveDraft: (actor, id, hash) => approveDraft(kernel, actor, id, hash, deps()),
    rejectDraft: (actor, id, feedback) => rejectDraft(kernel, actor, id, feedback),
    verify: (actor, id) => verifyOrchestration(kernel, actor, id, deps()),
    requestCorrections: (actor, id, feedback) => requestCorrections(kernel, actor, id, feedback),
    approveRevision: (actor, id, revision) => approveRevision(kernel, actor, id, revision, deps()),
    merge: (actor, id, opts) => mergeOrchestration(kernel, actor, id, opts, deps()),
    declineMerge: (actor, id) => declineMerge(kernel, actor, id),
    threadView: (id) => orchestrationThreadView(kernel.db, id),
  };
}
