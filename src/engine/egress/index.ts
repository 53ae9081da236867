export {
  type EgressProxy,
  type EgressRefusal,
  type EgressRules,
  parseAuthority,
  type RefusalReason,
  startEgressProxy,
} from "./egressProxy.js";
