import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Clock } from "./clock.js";
import type { Database } from "./database.js";
import type { DispatchResult } from "./agents/dispatcher.js";
import type { HostLoad } from "./agents/hostLoad.js";
import type { RecordAgentOutcome } from "./agents/outcome.js";
import { signalIfSame } from "./agents/processes.js";

// Aggregates import this module, never engine.ts: the composition root imports every aggregate
// (to register their ticks and reactors), so an aggregate importing it back would close a cycle.

/** A step of the tick; coordination, runs and orchestrations register theirs. */
export type TickHandler = (kernel: Kernel) => Promise<Record<string, unknown> | undefined>;

/** The tick's answer: standby while another process coordinates, else what each handler did. */
export type TickResult = { state: "standby" } | ({ state: "processed" } & Record<string, unknown>);

/** The ports every use case receives from the composition root (one per process). */
export interface Kernel {
  readonly config: Config;
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The host's load and memory, read by the dispatcher and the status view. */
  readonly host: HostLoad;
  /** Records an agent's outcome inside the transaction that finishes its item. */
  readonly hook: RecordAgentOutcome;
  /** Starts what the runtime policy allows now; use cases ask for it with `{dispatch: true}`. */
  dispatch(): Promise<DispatchResult>;
  /** Adds a tick step; steps run in registration order, the dispatcher always last. */
  onTick(name: string, handler: TickHandler): void;
}

/** A running worker to stop, identified by pid and start time (a recycled pid is left alone). */
export interface WorkerToStop {
  pid: number | null;
  startTime: string | null;
}

/** What a use case asks for once its transactions have committed. */
export interface Effects {
  /** Start queued work now (the tick would, later). */
  dispatch?: boolean;
  /** Signal these workers: their items are flagged, the signal only makes the stop immediate. */
  stop?: readonly WorkerToStop[];
}

/** A use case's answer and the effects it asks for. */
export interface Outcome<T> {
  value: T;
  effects: Effects;
}

/** A use case's answer with the effects it asks for. */
export const withEffects = <T>(value: T, effects: Effects): Outcome<T> => ({ value, effects });

/** Performs a use case's effects; the one place that does, after the use case's commits. */
export async function performEffects(
  kernel: Pick<Kernel, "dispatch">,
  effects: Effects,
): Promise<DispatchResult | null> {
  for (const w of effects.stop ?? []) signalIfSame(w.pid, w.startTime, "SIGTERM");
  return effects.dispatch ? kernel.dispatch() : null;
}

/**
 * Runs a use case, then performs its effects: the use case commits its transactions and returns
 * what must happen next (never awaiting a spawn or a signal inside a transaction); an error
 * thrown by the use case performs nothing.
 */
export async function runUseCase<T>(
  kernel: Pick<Kernel, "dispatch">,
  useCase: () => Promise<Outcome<T>>,
): Promise<T> {
  return (await runUseCaseDispatched(kernel, useCase)).value;
}

/** `runUseCase`, also answering what the dispatch it asked for did (null when it asked none). */
export async function runUseCaseDispatched<T>(
  kernel: Pick<Kernel, "dispatch">,
  useCase: () => Promise<Outcome<T>>,
): Promise<{ value: T; dispatched: DispatchResult | null }> {
  const { value, effects } = await useCase();
  return { value, dispatched: await performEffects(kernel, effects) };
}
