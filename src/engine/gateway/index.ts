export { type ModelGateway, startModelGateway } from "./modelGateway.js";
export type { GatewayUsage } from "./usageTap.js";
export { type CredentialKind, readOperatorConfig, resolveUpstream, type Upstream, UpstreamError } from "./upstream.js";
export {
  GATEWAY_TOKEN_ENV,
  gatewayOverrides,
  jailConfigToml,
  STAND_IN_AUTH,
} from "./jailConfig.js";
