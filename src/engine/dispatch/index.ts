// The public face of engine/dispatch: what other folders of the engine (and its API) use of it.

export { type WorkerSpawner, dispatch } from "./dispatcher.js";
export {
  HOST_NAME,
  heartbeatHost,
  interruptLostHosts,
  readingsOf,
  registerHost,
  releaseHost,
} from "./hosts.js";
export { reapLostWorkers } from "./reaper.js";
export { processSpawner } from "./spawner.js";
export { type QueueStatus, queueStatus } from "./status.js";
export { type Assignment, warmSpawner } from "./warmSpawner.js";
