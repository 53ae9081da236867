// What a process's entry point composes, beside the use cases of ./index.ts: opening and migrating
// the database, the engine of this process (its tick, its dispatch), the worker, worker hosts, the
// front end's own storage (its tables, its leases, its wake-ups) and the checks `doctor` runs. No
// use case is here: a person's request goes through the API objects, which check who asks.

export { Engine, type EngineOptions } from "../engine.js";
export {
  openDatabase,
  migrate,
  dialectOf,
  type Database,
  type Tx,
} from "../database.js";
export { systemClock, type Clock } from "../clock.js";
export { StartupError, describeStorageError, openWritable } from "../storage.js";
export { startTicker, type Ticker } from "../ticker.js";
export { wakeupsOf, closeWakeups, type Wakeups } from "../wakeups.js";
export {
  acquireLease,
  releaseLease,
  leaseExpiries,
  forgetExpiredLeases,
  provablyDead,
  processOwnerId,
} from "../leases.js";
export { logsDir, packageRoot } from "../system/paths.js";
export { processSpawner } from "../dispatch/spawner.js";
export { warmSpawner, type Assignment } from "../dispatch/warmSpawner.js";
export type { WorkerSpawner } from "../dispatch/dispatcher.js";
export { HOST_NAME } from "../dispatch/hosts.js";
export { workerHostSeat } from "./workerHost.js";
export { runWorker } from "../worker/worker.js";
export { pruneClones } from "../workspaces/selfClones.js";
export { createEngineApi, type EngineApi } from "./index.js";

// `codexpi doctor` and the model probe: the jail, the network stack, Codex and its credentials.
export { codexSupportPath, resolveCodexBinary } from "../codex/codexBinary.js";
export { turnRunner } from "../codex/runnerChoice.js";
export { findNetworkStack, modelLoopbackPorts } from "../isolation/agentNetwork.js";
export { jailedCodex, operatorCodexHome, projectCodexState } from "../isolation/codexJail.js";
export { codexEnvironment } from "../isolation/environment.js";
export { findBwrap } from "../isolation/jail.js";
export { probeJail } from "../isolation/probe.js";
export type { LayoutProblem } from "../projects/layout.js";
