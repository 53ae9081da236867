import type { Kernel } from "../kernel.js";
import { assertAdmin, projectForOwner, type Actor } from "../projects/index.js";
import { globalPolicy, setProjectLimit, type RuntimePolicy } from "../projects/index.js";
import { updatePolicyUseCase } from "../projects/index.js";
import { deferred, type Deferred } from "./deferred.js";

/** Runtime policies: how much runs at once, when background work may start. */
export interface PoliciesApi {
  /** The global policy. */
  global(): Promise<RuntimePolicy>;
  /** Changes the global policy (admins only); a higher limit may start queued work (deferred). */
  update(actor: Actor, input: unknown): Promise<Deferred<RuntimePolicy>>;
  /** A project's own concurrency limit (null: the global one), set by its owner or an admin. */
  setProjectLimit(actor: Actor, projectName: string, max: number | null): Promise<void>;
}

export function policiesApi(kernel: Kernel): PoliciesApi {
  return {
    global: () => globalPolicy(kernel.db),
    update: async (actor, input) => {
      assertAdmin(actor);
      return deferred(kernel, () => updatePolicyUseCase(kernel, input, actor.userId));
    },
    setProjectLimit: async (actor, projectName, max) => {
      const project = await projectForOwner(kernel.db, actor, projectName);
      await setProjectLimit(kernel.db, kernel.clock, project.id, max, actor.userId);
    },
  };
}
