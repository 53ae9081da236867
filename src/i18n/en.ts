import { approvals } from "./en/approvals.js";
import { cli } from "./en/cli.js";
import { commands } from "./en/commands.js";
import { coordination } from "./en/coordination.js";
import { core } from "./en/core.js";
import { laneCard } from "./en/laneCard.js";
import { forge } from "./en/forge.js";
import { forgeCi } from "./en/forgeCi.js";
import { forgeSetup } from "./en/forgeSetup.js";
import { forgeFront } from "./en/forgeFront.js";
import { orchestrations } from "./en/orchestrations.js";
import { runs } from "./en/runs.js";
import { requestOptions } from "./en/requestOptions.js";
import { firstHour } from "./en/firstHour.js";
import { threadContext } from "./en/threadContext.js";
import { usage } from "./en/usage.js";
import { files } from "./en/files.js";
import { rights } from "./en/rights.js";
import { quiet } from "./en/quiet.js";
import { schedules } from "./en/schedules.js";
import { memory } from "./en/memory.js";
import { egress } from "./en/egress.js";
import { network } from "./en/network.js";
import { setup } from "./en/setup.js";
import { channelSettings } from "./en/channelSettings.js";
import { threadTeam } from "./en/threadTeam.js";
import type { MessageKey } from "./fr.js";
import type { Message } from "./message.js";

/**
 * The English catalog: exactly the French keys (a missing or extra key fails to compile, here or
 * in its area's file `en/*.ts`).
 */
export const en = {
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
} satisfies Record<MessageKey, Message>;
