// The public face of engine/worker: what other folders of the engine (and its API) use of it.

export { runWorker } from "./worker.js";
export { type ProbeJail, probeJailedCodex, warmTurnServices } from "./launch.js";
