// The public face of engine/network: a project's egress policy as data (pure, no I/O). The egress
// proxy (engine/worker) enforces it; engine/projects stores it and changes it.

export { isPrivateAddress } from "./addresses.js";
export {
  type HostEntry,
  type NetworkPolicy,
  formatHostEntry,
  isPrivateEntry,
  matchHost,
  parseHostEntry,
} from "./policy.js";
export { NETWORK_PRESETS, PRESET_NAMES, expandHostArgs } from "./presets.js";
export { hostsColumn, projectNetwork } from "./stored.js";
export { type NetworkMode, NETWORK_MODES } from "./mode.js";
