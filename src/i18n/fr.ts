import { approvals } from "./fr/approvals.js";
import { cli } from "./fr/cli.js";
import { commands } from "./fr/commands.js";
import { coordination } from "./fr/coordination.js";
import { core } from "./fr/core.js";
import { laneCard } from "./fr/laneCard.js";
import { forge } from "./fr/forge.js";
import { forgeCi } from "./fr/forgeCi.js";
import { forgeSetup } from "./fr/forgeSetup.js";
import { forgeFront } from "./fr/forgeFront.js";
import { orchestrations } from "./fr/orchestrations.js";
import { runs } from "./fr/runs.js";
import { requestOptions } from "./fr/requestOptions.js";
import { firstHour } from "./fr/firstHour.js";
import { threadContext } from "./fr/threadContext.js";
import { usage } from "./fr/usage.js";
import { files } from "./fr/files.js";
import { rights } from "./fr/rights.js";
import { quiet } from "./fr/quiet.js";
import { schedules } from "./fr/schedules.js";
import { memory } from "./fr/memory.js";
import { egress } from "./fr/egress.js";
import { network } from "./fr/network.js";
import { setup } from "./fr/setup.js";
import { channelSettings } from "./fr/channelSettings.js";
import { threadTeam } from "./fr/threadTeam.js";

/**
 * The French catalog: the source of the keys (`MessageKey`), built from
 * one file per area (`fr/*.ts`). Keys are `<area>.<item>`; values are Slack mrkdwn-safe (no raw
 * `&`, `<`, `>`), except the `command.*.syntax` lines, which views escape.
 */
export const fr = {
  ...core,
  ...commands,
  ...cli,
  ...coordination,
  ...runs,
  ...orchestrations,
  ...approvals,
  ...laneCard,
  ...forge,
  ...forgeFront,
  ...forgeCi,
  ...forgeSetup,
  ...requestOptions,
  ...firstHour,
  ...threadContext,
  ...usage,
  ...files,
  ...rights,
  ...quiet,
  ...schedules,
  ...memory,
  ...egress,
  ...network,
  ...setup,
  ...channelSettings,
  ...threadTeam,
};

/** Keys defined in more than one area. */
type SharedKeys<Areas extends readonly object[], Seen extends PropertyKey = never> = Areas extends readonly [
  infer Area extends object,
  ...infer Rest extends readonly object[],
]
  ? (keyof Area & Seen) | SharedKeys<Rest, Seen | keyof Area>
  : never;
type NoSharedKeys<Areas extends readonly object[]> = [SharedKeys<Areas>] extends [never]
  ? true
  : { sharedKeys: SharedKeys<Areas> };
type Assert<T extends true> = T;
// A spread silently keeps the last of two equal keys: this fails to compile instead, naming them.
type _AreasAreDisjoint = Assert<
  NoSharedKeys<
    [
      typeof core,
      typeof commands,
      typeof cli,
      typeof coordination,
      typeof runs,
      typeof orchestrations,
      typeof approvals,
      typeof laneCard,
      typeof forge,
      typeof forgeFront,
      typeof forgeCi,
      typeof forgeSetup,
      typeof requestOptions,
      typeof firstHour,
      typeof threadContext,
      typeof files,
      typeof rights,
      typeof quiet,
      typeof schedules,
      typeof memory,
      typeof egress,
      typeof network,
      typeof channelSettings,
      typeof threadTeam,
    ]
  >
>;

/** Every message key, taken from the French catalog. */
export type MessageKey = keyof typeof fr;
