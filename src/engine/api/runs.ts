import type { Kernel } from "../kernel.js";
import {
  cancelRun,
  resumeRun,
  revisableRun,
  runDetail,
  runStatus,
  startRun,
  type RunDetail,
  type RunStatusView,
} from "../runs/index.js";
import { runOrigin, type RunOrigin } from "../read/index.js";
import { bound, type Bound } from "./bind.js";

/** Autonomous runs: a plan of steps supervised by the master agent. */
export interface RunsApi {
  /** Starts a run from a plan (the actor owns it). */
  start: Bound<typeof startRun>;
  /** The actor's active run, else their latest. */
  status(actor: Parameters<typeof runStatus>[1]): Promise<RunStatusView>;
  /** A blocked run the actor may revise (its plan), or conflict. */
  revisable: Bound<typeof revisableRun>;
  /** Resumes a blocked run, with a revised plan or as it was. */
  resume: Bound<typeof resumeRun>;
  /** Cancels a run: its agents stopped, its steps closed. */
  cancel: Bound<typeof cancelRun>;
  /** One run's detail, for its thread. */
  detail(runId: string): Promise<RunDetail | null>;
  /** Who started a run and from where. */
  origin(runId: string): Promise<RunOrigin | null>;
}

export function runsApi(kernel: Kernel): RunsApi {
  return {
    start: bound(kernel, startRun),
    status: (actor) => runStatus(kernel, actor),
    revisable: bound(kernel, revisableRun),
    resume: bound(kernel, resumeRun),
    cancel: bound(kernel, cancelRun),
    detail: (runId) => runDetail(kernel.db, runId),
    origin: (runId) => runOrigin(kernel.db, runId),
  };
}
