import type { Engine } from "../engine.js";
import type { DispatchResult } from "../kernel.js";
import { heartbeatHost, readingsOf, registerHost, releaseHost } from "../dispatch/index.js";

/**
 * A worker host's seat (`codexpi host`): its name held in the database by heartbeats, its turns
 * (reap its own lost workers, start what its policy allows) and the release on the way out.
 */
export interface WorkerHostSeat {
  /** Takes the name; false when another live host holds it. */
  register(): Promise<boolean>;
  /** Renews the name with this machine's readings; false when the name was lost meanwhile. */
  heartbeat(): Promise<boolean>;
  turn(): Promise<DispatchResult>;
  release(): Promise<void>;
}

export function workerHostSeat(engine: Engine, name: string, owner: string): WorkerHostSeat {
  const { db, clock, config } = engine;
  let running = 0;
  return {
    register: () => registerHost(db, clock, name, owner, config.hostTtlMs, config.dataDir),
    heartbeat: () => heartbeatHost(db, clock, name, owner, readingsOf(engine.host, running)),
    turn: async () => {
      const result = await engine.hostTurn();
      running = await runningHere(engine);
      return result;
    },
    release: () => releaseHost(db, name, owner),
  };
}

/** How many items run on this host now (the heartbeat's reading). */
async function runningHere(engine: Engine): Promise<number> {
  const row = await engine.db
    .selectFrom("prompt_queue as q")
    .innerJoin("conversations as c", "c.id", "q.conversation_id")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("q.status", "=", "running")
    .where("p.host", "=", engine.config.hostName)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
