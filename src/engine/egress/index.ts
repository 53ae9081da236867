export {
  type EgressProxy,
  type EgressRefusal,
  type EgressRules,
  parseAuthority,
  type RefusalReason,
  startEgressProxy,
} from "./egressProxy.js";
export { type PortBridge, startPortBridge } from "./portBridge.js";
