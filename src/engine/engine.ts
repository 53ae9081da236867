import type { Logger } from "pino";
import type { Config } from "../config.js";
import { silentLogger } from "../logger.js";
import { systemClock, type Clock } from "./clock.js";
import type { Database } from "./database.js";
import { dispatch, type WorkerSpawner } from "./dispatch/index.js";
import { systemHostLoad, type HostLoad } from "./system/index.js";
import {
  announceOutcome,
  createOutcomeHook,
  type OutcomeReactor,
  type RecordAgentOutcome,
  type StopReactor,
} from "./outcomeHook.js";
import { processSpawner } from "./dispatch/index.js";
import { reapLostWorkers } from "./dispatch/index.js";
import { interruptLostHosts } from "./dispatch/index.js";
import { stopConversation, type StopResult } from "./conversations/index.js";
import {
  cancelDecisionsOnStop,
  coordinationReactors,
  registerCoordinationTicks,
} from "./coordination/index.js";
import { registerRunTicks } from "./runs/index.js";
import { registerOrchestrationTicks } from "./orchestrations/index.js";
import { registerApprovalTicks } from "./approvals/index.js";
import { registerLaneTicks } from "./lanes/index.js";
import { registerScheduleTicks } from "./schedules/index.js";
import { registerAuditTicks } from "./audit/index.js";
import { abandonApprovalsReactor } from "./approvals/index.js";
import { proposeNoteReactor } from "./memory/index.js";
import { acquireLease, COORDINATOR_LEASE, leaseHolder, processOwnerId, releaseLease } from "./leases.js";
import type {
  ChannelMember,
  DispatchResult,
  Kernel,
  ScheduledIn,
  TickHandler,
  TickResult,
} from "./kernel.js";
import { recoverOutcome } from "./conversations/index.js";
import { dropKeptOutcome } from "./conversations/index.js";
import type { Wakeups } from "./wakeups.js";

export type { TickHandler, TickResult } from "./kernel.js";

/** How to build an engine; everything but config and db has a production default. */
export interface EngineOptions {
  config: Config;
  db: Database;
  clock?: Clock;
  host?: HostLoad;
  logger?: Logger;
  spawner?: WorkerSpawner;
  reactors?: OutcomeReactor[];
  /** Lease owner id; `<host>:<pid>:<start time>:<nonce>` by default (see `processOwnerId`). */
  owner?: string;
  leaseTtlMs?: number;
  /** Where a schedule's conversation lives in the front end (the bot records its Slack address). */
  scheduledIn?: ScheduledIn;
  /** Whether a person is in a front end's channel (the bot asks Slack); a schedule's firing checks it. */
  channelMember?: ChannelMember;
}

/**
 * The composition root of the domain, one per process (bot, worker, CLI): it builds the ports and
 * registers each aggregate's ticks and reactors. Aggregates receive it as a `Kernel` and never
 * import this module.
 */
export class Engine implements Kernel {
  readonly config: Config;
  readonly db: Database;
  readonly clock: Clock;
  readonly host: HostLoad;
  readonly logger: Logger;
  readonly hook: RecordAgentOutcome;
  readonly onStop: StopReactor = cancelDecisionsOnStop;
  readonly owner: string;
  readonly scheduledIn?: ScheduledIn;
  readonly channelMember?: ChannelMember;
  private readonly spawner: WorkerSpawner;
  private readonly leaseTtlMs: number;
  private readonly tickHandlers: Array<[string, TickHandler]> = [];

  constructor(opts: EngineOptions) {
    this.config = opts.config;
    this.db = opts.db;
    this.clock = opts.clock ?? systemClock;
    this.host = opts.host ?? systemHostLoad;
    this.logger = opts.logger ?? silentLogger;
    this.spawner = opts.spawner ?? processSpawner(opts.config);
    this.hook = createOutcomeHook(
      opts.reactors ?? [
        ...coordinationReactors(opts.config.locale),
        abandonApprovalsReactor,
        proposeNoteReactor,
        announceOutcome,
      ],
      this.clock,
    );
    this.owner = opts.owner ?? processOwnerId();
    this.leaseTtlMs = opts.leaseTtlMs ?? opts.config.leaseTtlMs;
    this.scheduledIn = opts.scheduledIn;
    this.channelMember = opts.channelMember;
    this.onTick("reaper", async (e) => {
      const reaped = await this.reapOwnWorkers();
      // The coordinator also answers for worker hosts that stopped heartbeating.
      const interrupted = await interruptLostHosts(e.db, e.clock, e.hook, e.logger, e.config.hostTtlMs);
      return interrupted.length ? { reaped, lost_host_items: interrupted } : { reaped };
    });
    registerCoordinationTicks(this);
    registerRunTicks(this);
    registerOrchestrationTicks(this);
    registerApprovalTicks(this);
    registerLaneTicks(this);
    registerScheduleTicks(this);
    registerAuditTicks(this);
  }

  /** Adds a tick step; steps run in registration order, the dispatcher always last. */
  onTick(name: string, handler: TickHandler): void {
    this.tickHandlers.push([name, handler]);
  }

  /** Reaps the lost workers of this machine's projects (`config.hostName`'s, or unplaced ones). */
  async reapOwnWorkers(): Promise<string[]> {
    const reaped = await reapLostWorkers(
      this.db,
      this.clock,
      this.hook,
      this.logger,
      (item) => recoverOutcome(this.config, this.db, item),
      this.config.hostName,
    );
    for (const id of reaped) dropKeptOutcome(this.config, id); // recorded: the kept copy has served
    return reaped;
  }

  /**
   * One turn of a worker host (`codexpi host`): reaps its own lost workers, then starts what its
   * policy allows for its projects. No coordinator lease: each host answers for its own machine.
   */
  async hostTurn(): Promise<DispatchResult> {
    await this.reapOwnWorkers();
    return this.dispatch();
  }

  /** Starts what the runtime policy allows now (for this machine's projects only). */
  dispatch(): Promise<DispatchResult> {
    return dispatch({
      db: this.db,
      clock: this.clock,
      host: this.host,
      spawn: this.spawner,
      hook: this.hook,
      logger: this.logger,
      locale: this.config.locale,
      placement: this.config.hostName,
      hostTtlMs: this.config.hostTtlMs,
    });
  }

  /** Stops a conversation's work; use cases ask for it with `{stop: [conversationId]}`. */
  stopConversation(conversationId: string): Promise<StopResult> {
    return stopConversation(this, conversationId);
  }

  /**
   * One tick: under the coordinator lease, runs every step (a failing step is logged and does not
   * stop the others), then dispatches. Without the lease: `{state: "standby"}`.
   */
  async tick(): Promise<TickResult> {
    if (!(await acquireLease(this.db, this.clock, COORDINATOR_LEASE, this.owner, this.leaseTtlMs))) {
      return { state: "standby" };
    }
    const result: Record<string, unknown> = {};
    for (const [name, handler] of this.tickHandlers) {
      try {
        Object.assign(result, (await handler(this)) ?? {});
      } catch (err) {
        this.logger.error({ err, step: name }, "tick step failed");
        result[`${name}_error`] = (err as Error).message;
      }
    }
    const dispatched = await this.dispatch();
    return {
      state: "processed",
      ...result,
      started: dispatched.started.map((s) => s.id),
      paused: dispatched.paused,
    };
  }

  /**
   * Dispatches when work is queued or a slot frees anywhere (wake-ups from other processes: another
   * bot instance, a CLI, a worker on PostgreSQL), in the coordinator only, never two at once (a
   * wake-up during a dispatch runs one more after it). Returns the unsubscribe.
   */
  dispatchOnWake(wakeups: Wakeups): () => void {
    let running: Promise<void> | null = null;
    let again = false;
    const run = async () => {
      do {
        again = false;
        if (await this.holdsLease()) await this.dispatch();
      } while (again);
    };
    const wake = () => {
      if (running) {
        again = true;
        return;
      }
      running = run()
        .catch((err) => this.logger.warn({ err }, "dispatch on wake-up failed"))
        .finally(() => {
          running = null;
        });
    };
    const offs = [wakeups.on("enqueue", wake), wakeups.on("finish", wake)];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Whether this process holds the coordinator lease now (only the coordinator notifies Slack). */
  async holdsLease(): Promise<boolean> {
    return (await leaseHolder(this.db, this.clock, COORDINATOR_LEASE))?.owner === this.owner;
  }

  /** Gives the coordinator lease up (on shutdown, or after a one-off CLI tick). */
  releaseLease(): Promise<void> {
    return releaseLease(this.db, COORDINATOR_LEASE, this.owner);
  }
}
