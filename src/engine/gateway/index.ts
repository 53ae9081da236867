export { startModelGateway } from "./modelGateway.js";
export type { GatewayUsage } from "./usageTap.js";
export { readOperatorConfig, resolveUpstream } from "./upstream.js";
export {
  GATEWAY_TOKEN_ENV,
  gatewayOverrides,
  jailConfigToml,
  STAND_IN_AUTH,
} from "./jailConfig.js";
