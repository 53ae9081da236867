import type { NetworkMode } from "../schema.js";

// A project's network modes, apart from the policy's parsing (which needs node:url): the modes
// are a column's type of the schema, which the compile-time tests check without node's types.

export type { NetworkMode };

/** Every mode, in the order the usage lines say them. */
export const NETWORK_MODES: readonly NetworkMode[] = ["off", "allowlist", "open"];
