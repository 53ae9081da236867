export type { EgressProxy, EgressRefusal } from "./egressProxy.js";
export { startPortBridge } from "./portBridge.js";
export { proxyNeeded, proxyVariables, startPolicyProxy } from "./policyProxy.js";
export { egressSelfTest } from "./selfTest.js";
