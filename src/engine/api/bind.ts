import type { Kernel } from "../kernel.js";

/** A use case of the engine without its first parameter, the kernel: what a front end calls. */
export type Bound<F> = F extends (kernel: Kernel, ...args: infer A) => infer R ? (...args: A) => R : never;

/** Binds a use case written as `(kernel, actor, …)` to this process's kernel. */
export function bound<A extends unknown[], R>(
  kernel: Kernel,
  useCase: (kernel: Kernel, ...args: A) => R,
): (...args: A) => R {
  return (...args) => useCase(kernel, ...args);
}
