// The public face of bot/threadContext: reading the Slack thread a person called codexpi into,
// as data for the engine (issue 19, item 1; docs/thread-context.md).

export { ChannelAccessCheck } from "./channelAccess.js";
export { DisplayNames } from "./displayNames.js";
export { type SharedFiles, type ThreadRead, ThreadReader } from "./reader.js";
export { tellUnread } from "./notice.js";
