import { withEffects, type Kernel, type Outcome } from "../kernel.js";
import { updateGlobalPolicy, type RuntimePolicy } from "./policies.js";

// Apart from policies.ts: the dispatcher reads policies, and the kernel names the dispatcher's
// result, so a use case there would close a cycle kernel → dispatcher → policies → kernel.

/** An admin's new runtime policy, saved; a higher limit may let queued work start, hence the dispatch. */
export async function updatePolicyUseCase(
  kernel: Pick<Kernel, "db" | "clock">,
  input: unknown,
  by: string,
): Promise<Outcome<RuntimePolicy>> {
  return withEffects(await updateGlobalPolicy(kernel.db, kernel.clock, input, by), { dispatch: true });
}
