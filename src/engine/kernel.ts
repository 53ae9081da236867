import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Clock } from "./clock.js";
import type { Database, Tx } from "./database.js";
import type { HostLoad } from "./system/index.js";
import type { RecordAgentOutcome, StopReactor } from "./outcomeHook.js";
import { signalIfSame } from "./system/index.js";

// Aggregates import this module, never engine.ts: the composition root imports every aggregate
// (to register their ticks and reactors), so an aggregate importing it back would close a cycle.

/** Why new work is not starting right now. */
export type PauseReason = "concurrency" | "load" | "memory";

/** A queue item the dispatcher moved to running. */
export interface Claim {
  id: string;
  attempt: number;
  conversationId: string;
}

/** What one dispatch did. */
export interface DispatchResult {
  started: Claim[];
  paused: PauseReason[];
}

/** A step of the tick; coordination, runs and orchestrations register theirs. */
export type TickHandler = (kernel: Kernel) => Promise<Record<string, unknown> | undefined>;

/** The tick's answer: standby while another process coordinates, else what each handler did. */
export type TickResult = { state: "standby" } | ({ state: "processed" } & Record<string, unknown>);

/**
 * Records where a conversation a schedule starts lives in the front end (its Slack address: the
 * schedule's channel), inside the transaction that creates it; absent without a front end.
 */
export type ScheduledIn = (trx: Tx, conversationId: string, channel: string | null) => Promise<void>;

/**
 * Whether a person is a member of a front end's channel (the bot asks Slack's
 * `conversations.members`): the engine never calls Slack, the bot lends it this seam. Never
 * called inside a transaction.
 */
export type ChannelMember = (channel: string, userId: string) => Promise<boolean>;

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
  /** Closes what a stopped conversation left waiting (its open decisions), in the stop's transaction. */
  readonly onStop: StopReactor;
  /** Starts what the runtime policy allows now; use cases ask for it with `{dispatch: true}`. */
  dispatch(): Promise<DispatchResult>;
  /** Stops a conversation's work (an effect: never called inside a transaction). */
  stopConversation(conversationId: string): Promise<unknown>;
  /** Adds a tick step; steps run in registration order, the dispatcher always last. */
  onTick(name: string, handler: TickHandler): void;
  /** Where a schedule's conversation lives in the front end (set by the bot; absent in the CLI). */
  readonly scheduledIn?: ScheduledIn;
  /** Whether a schedule's creator is still in its channel at a firing (set by the bot; absent in the CLI). */
  readonly channelMember?: ChannelMember;
}

/** A running worker to signal, identified by pid and start time (a recycled pid is left alone). */
export interface WorkerToSignal {
  pid: number | null;
  startTime: string | null;
}

/** What a use case asks for once its transactions have committed. */
export interface Effects {
  /** Stop these conversations (their queued items cancelled, running ones flagged and signalled). */
  stop?: readonly string[];
  /** Signal these workers: their items are already flagged, the signal makes the stop immediate. */
  signal?: readonly WorkerToSignal[];
  /** Start queued work now (the tick would, later); done last, after the stops. */
  dispatch?: boolean;
}

/** A use case's answer and the effects it asks for. */
export interface Outcome<T> {
  value: T;
  effects: Effects;
}

/** A use case's answer with the effects it asks for. */
export const withEffects = <T>(value: T, effects: Effects): Outcome<T> => ({ value, effects });

/** The ports that carry effects out. */
export type EffectPorts = Pick<Kernel, "dispatch" | "stopConversation">;

/**
 * Performs a use case's effects; the one place that does, once the use case's transactions have
 * committed (never inside one: a stop and a dispatch open their own, a spawn must not wait in one).
 */
export async function performEffects(kernel: EffectPorts, effects: Effects): Promise<DispatchResult | null> {
  for (const w of effects.signal ?? []) signalIfSame(w.pid, w.startTime, "SIGTERM");
  for (const conversationId of effects.stop ?? []) await kernel.stopConversation(conversationId);
  return effects.dispatch ? kernel.dispatch() : null;
}

/**
 * Runs a use case, then performs its effects: the use case commits its transactions and returns
 * what must happen next; a use case that throws performs nothing.
 */
export async function runUseCase<T>(kernel: EffectPorts, useCase: () => Promise<Outcome<T>>): Promise<T> {
  return (await runUseCaseDispatched(kernel, useCase)).value;
}

/** `runUseCase`, also answering what the dispatch it asked for did (null when it asked none). */
export async function runUseCaseDispatched<T>(
  kernel: EffectPorts,
  useCase: () => Promise<Outcome<T>>,
): Promise<{ value: T; dispatched: DispatchResult | null }> {
  const { value, effects } = await useCase();
  return { value, dispatched: await performEffects(kernel, effects) };
}
