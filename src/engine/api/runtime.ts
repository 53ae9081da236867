// What a process's entry point composes, beside the use cases of ./index.ts: opening and migrating
// the database, the engine of this process (its tick, its dispatch), the worker, worker hosts, the
// front end's own storage (its tables, its leases, its wake-ups) and the checks `doctor` runs. No
// use case is here: a person's request goes through the API objects, which check who asks.

export { Engine, type EngineOptions } from "../engine.js";
export {
  openDatabase,
  migrate,
  migrateIfBehind,
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
export { logsDir, packageRoot, recordModelProbe } from "../system/index.js";
export { processSpawner } from "../dispatch/index.js";
export { warmSpawner, type Assignment } from "../dispatch/index.js";
export type { WorkerSpawner } from "../dispatch/index.js";
export { HOST_NAME } from "../dispatch/index.js";
export { workerHostSeat } from "./workerHost.js";
export { probeJailedCodex, type ProbeJail, runWorker, warmTurnServices } from "../worker/index.js";
export { pruneClones } from "../workspaces/index.js";
export { pruneStaleFiles } from "../files/index.js";
export { createEngineApi, type EngineApi } from "./index.js";

// `codexpi doctor` and the model probe: the jail, the network stack, Codex and its credentials.
export { codexSupportPath, resolveCodexBinary } from "../codex/index.js";
export { turnRunner } from "../codex/index.js";
export { findNetworkStack, mcpLoopbackPorts } from "../isolation/index.js";
export { readOperatorConfig, resolveUpstream } from "../gateway/index.js";
export { egressSelfTest } from "../egress/index.js";
export { operatorCodexHome, projectCodexState } from "../isolation/index.js";
export { codexEnvironment } from "../isolation/index.js";
export { findBwrap } from "../isolation/index.js";
export { probeJail } from "../isolation/index.js";
export type { LayoutProblem } from "../projects/index.js";
