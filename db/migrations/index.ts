import type { Migration } from "kysely";
import * as m0001 from "./0001_initial.js";
import * as m0002 from "./0002_queue_priority_and_workers.js";
import * as m0003 from "./0003_slack.js";
import * as m0004 from "./0004_coordination.js";
import * as m0005 from "./0005_runs.js";
import * as m0006 from "./0006_orchestrations.js";
import * as m0007 from "./0007_flow_threads.js";
import * as m0008 from "./0008_repair_missing_columns.js";
import * as m0009 from "./0009_slack_addresses.js";
import * as m0010 from "./0010_slack_channel_defaults.js";
import * as m0011 from "./0011_project_readers.js";
import * as m0012 from "./0012_approvals.js";
import * as m0013 from "./0013_steer.js";
import * as m0014 from "./0014_worker_hosts.js";
import * as m0015 from "./0015_shared_intake.js";
import * as m0016 from "./0016_queue_sequence.js";
import * as m0017 from "./0017_engine_forgets_slack.js";
import * as m0018 from "./0018_workspace_mode.js";
import * as m0019 from "./0019_lanes.js";
import * as m0020 from "./0020_project_forge.js";
import * as m0021 from "./0021_lane_card.js";
import * as m0022 from "./0022_request_options.js";
import * as m0023 from "./0023_thread_context.js";
import * as m0029 from "./0029_usage_and_budgets.js";
import * as m0024 from "./0024_queue_attachments.js";
import * as m0027 from "./0027_schedules.js";
import * as m0028 from "./0028_audit_events.js";
import * as m0030 from "./0030_file_transfers.js";
import * as m0031 from "./0031_project_network.js";
import * as m0032 from "./0032_project_setup.js";
import * as m0034 from "./0034_channel_settings.js";
import * as m0036 from "./0036_lane_merge_how.js";
import * as m0037 from "./0037_project_memory.js";
import * as m0033 from "./0033_thread_team.js";
import * as m0035 from "./0035_turn_unreachable_time.js";
import * as m0038 from "./0038_forge_front_end.js";
import * as m0041 from "./0041_memory_places.js";
import * as m0040 from "./0040_forge_ci.js";
import * as m0042 from "./0042_forge_polling.js";

/** Every migration in order; a static list so that the same code runs from src/ and dist/. */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_queue_priority_and_workers": m0002,
  "0003_slack": m0003,
  "0004_coordination": m0004,
  "0005_runs": m0005,
  "0006_orchestrations": m0006,
  "0007_flow_threads": m0007,
  "0008_repair_missing_columns": m0008,
  "0009_slack_addresses": m0009,
  "0010_slack_channel_defaults": m0010,
  "0011_project_readers": m0011,
  "0012_approvals": m0012,
  "0013_steer": m0013,
  "0014_worker_hosts": m0014,
  "0015_shared_intake": m0015,
  "0016_queue_sequence": m0016,
  "0017_engine_forgets_slack": m0017,
  "0018_workspace_mode": m0018,
  "0019_lanes": m0019,
  "0020_project_forge": m0020,
  "0021_lane_card": m0021,
  "0022_request_options": m0022,
  "0023_thread_context": m0023,
  "0029_usage_and_budgets": m0029,
  "0024_queue_attachments": m0024,
  "0027_schedules": m0027,
  "0028_audit_events": m0028,
  "0030_file_transfers": m0030,
  "0031_project_network": m0031,
  "0032_project_setup": m0032,
  "0034_channel_settings": m0034,
  "0036_lane_merge_how": m0036,
  "0037_project_memory": m0037,
  "0033_thread_team": m0033,
  "0035_turn_unreachable_time": m0035,
  "0038_forge_front_end": m0038,
  "0041_memory_places": m0041,
  "0040_forge_ci": m0040,
  "0042_forge_polling": m0042,
};
