// A project's network mode on its own (no node: import): the database schema's types read it,
// and the compile-time tests type-check the schema without node's types.

/** How a project's agents (and its setup) reach the network. */
export type NetworkMode = "off" | "allowlist" | "open";

/** Every mode, in the order the usage lines say them. */
export const NETWORK_MODES: readonly NetworkMode[] = ["off", "allowlist", "open"];
