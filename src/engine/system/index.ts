// The public face of engine/system: what other folders of the engine (and its API) use of it.

export { type HostLoad, systemHostLoad } from "./hostLoad.js";
export { cliEntry, forwarderScript, logsDir, packageRoot } from "./paths.js";
export {
  descendants,
  isSameProcessAlive,
  killGroup,
  killMarked,
  killTree,
  processStartTime,
  signalIfSame,
} from "./processes.js";
export { trailingThrottle } from "./throttle.js";
export { readModelProbe, recordModelProbe } from "./modelProbeRecord.js";
export { listenLocal } from "./localServer.js";
