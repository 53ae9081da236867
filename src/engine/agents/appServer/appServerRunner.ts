import { type CodexState, initialCodexState } from "../codexEvents.js";
import type { TurnOptions, TurnResult } from "../codexRunner.js";
import { killGroup, processStartTime } from "../processes.js";
import { interruptThenKill, startCodexProcess, stderrTail, turnWatchdogs } from "../turnProcess.js";
import { approvalRequest, COMMAND_APPROVAL, FILE_CHANGE_APPROVAL } from "./approvalRequests.js";
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from "./approvalTypes.js";
import { CONNECTION_CLOSED, METHOD_NOT_FOUND, RpcError, rpcConnection } from "./jsonRpc.js";
import { type AppServerView, applyNotification, isProgress, knownNotification } from "./notifications.js";
import type { FileUpdateChange } from "./protocol/v2/FileUpdateChange.js";
import type { ThreadItem } from "./protocol/v2/ThreadItem.js";
import type { UserInput } from "./protocol/v2/UserInput.js";
import type { ClientRequests, ServerRequests } from "./wire.js";

/** A turn while it runs: what the person's reply can be sent into. */
export interface RunningTurn {
  threadId: string;
  turnId: string;
  /** Adds input to the running turn (`turn/steer`); rejects when the turn is no longer active. */
  steer(text: string): Promise<void>;
}

/** A turn through `codex app-server`: the exec runner's options, plus approvals and steering. */
export interface AppServerTurnOptions extends TurnOptions {
  /**
   * Answers Codex's approval requests. With it the thread's policy is `on-request` (escalations
   * ask); without it the policy is `never`, and a request that comes anyway is declined.
   */
  onApproval?: ApprovalHandler;
  /** Called once the turn has started, with the means to steer it. */
  onTurnStarted?(turn: RunningTurn): void;
  /** Delay between `turn/interrupt` and the signals of a stop (default 3 s). */
  interruptGraceMs?: number;
}

// Informational only (Codex puts it in its user agent).
const CLIENT_INFO = { name: "codexpi", title: null, version: "0.1.0" };
// Notifications codexpi never reads: not sending them spares the pipe.
const OPT_OUT = [
  "account/rateLimits/updated",
  "item/commandExecution/outputDelta",
  "remoteControl/status/changed",
];

const textInput = (text: string): UserInput[] => [{ type: "text", text, text_elements: [] }];

/**
 * Runs one Codex turn through `codex app-server` (JSON-RPC over stdio), started like the exec
 * runner (own process group, same jail, stderr to the log) and ending with the same TurnResult:
 * its notifications fold into the same CodexState. Codex can ask for approvals here: they go to
 * `onApproval`, and the watchdogs are paused while one waits for a person. A stop interrupts the
 * turn through the protocol first, then signals Codex as exec does.
 */
export async function runAppServerTurn(opts: AppServerTurnOptions): Promise<TurnResult> {
  const inv = opts.invocation;
  const configArgs = Object.entries(inv.config ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  const child = startCodexProcess(opts, inv.cwd, ["app-server", ...configArgs], "pipe");
  const pid = child.pid;
  const jailed = Boolean(opts.wrap);
  const killGrace = opts.killGraceMs ?? 3_000;
  const interruptGrace = opts.interruptGraceMs ?? 3_000;

  let view: AppServerView = { state: initialCodexState(), writing: null };
  let turn: { threadId: string; turnId: string } | null = null;
  let turnOver = false;
  const fileChanges = new Map<string, FileUpdateChange[]>();
  const ctl: { stop: { reason: TurnResult["ended"]; watchdog: TurnResult["watchdog"] } | null } = {
    stop: null,
  };
  const timers: NodeJS.Timeout[] = [];
  const approvalsStop = new AbortController();
  let waitingApprovals = 0;
  const watchdogs = turnWatchdogs(opts, (which) => stop("watchdog", which));

  const publish = (next: CodexState) => {
    if (next === view.state) return;
    view = { ...view, state: next };
    opts.onState?.(next);
  };

  const rpc = rpcConnection<ClientRequests>(child.stdout!, child.stdin!, {
    onNotification(method, params) {
      if (isProgress(method)) watchdogs.touch();
      const n = knownNotification(method, params);
      if (!n) return;
      if (n.method === "item/started") rememberChanges(fileChanges, n.params.item);
      const before = view.state;
      try {
        view = applyNotification(view, n);
      } catch {
        return; // a field the pinned protocol promised is missing: ignored, like a malformed JSONL line
      }
      if (view.state !== before) opts.onState?.(view.state);
      if (n.method === "turn/completed" && !turnOver) {
        turnOver = true;
        // One turn per app-server: once it is over, closing stdin ends the process. The watchdogs
        // have nothing left to guard; one that lingers gets the signals after the grace.
        watchdogs.clear();
        rpc.end();
        if (pid)
          timers.push(
            setTimeout(() => timers.push(interruptThenKill(pid, jailed, killGrace)), interruptGrace),
          );
      }
    },
    async onRequest(method, params) {
      if (method !== COMMAND_APPROVAL && method !== FILE_CHANGE_APPROVAL)
        throw new RpcError(METHOD_NOT_FOUND, `codexpi does not answer ${method}`);
      const request = approvalRequest(
        method,
        params as ServerRequests[typeof method][0],
        fileChanges,
        inv.cwd,
      );
      return { decision: await decide(request) };
    },
  });

  // A person may take hours: the watchdogs wait with them, and a stop answers `cancel` at once.
  const decide = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    if (!opts.onApproval || approvalsStop.signal.aborted) return opts.onApproval ? "cancel" : "decline";
    if (waitingApprovals++ === 0) watchdogs.pause();
    try {
      const stopped = new Promise<ApprovalDecision>((resolve) =>
        approvalsStop.signal.addEventListener("abort", () => resolve("cancel"), { once: true }),
      );
      return await Promise.race([opts.onApproval(request, approvalsStop.signal), stopped]);
    } catch {
      return "decline"; // an approval that could not be asked is not granted
    } finally {
      if (--waitingApprovals === 0) watchdogs.resume();
    }
  };

  function stop(reason: TurnResult["ended"], watchdog: TurnResult["watchdog"] = null) {
    if (ctl.stop || !pid) return;
    ctl.stop = { reason, watchdog };
    approvalsStop.abort();
    watchdogs.clear();
    if (turn && !turnOver) {
      // The clean way: Codex ends the turn as `interrupted` and the thread stays resumable.
      rpc.request("turn/interrupt", turn).catch(() => undefined);
      timers.push(setTimeout(() => timers.push(interruptThenKill(pid, jailed, killGrace)), interruptGrace));
    } else {
      rpc.end();
      timers.push(interruptThenKill(pid, jailed, killGrace));
    }
  }

  const start = async () => {
    await rpc.request("initialize", {
      clientInfo: CLIENT_INFO,
      capabilities: { experimentalApi: false, requestAttestation: false, optOutNotificationMethods: OPT_OUT },
    });
    rpc.notify("initialized");
    // Always all three: a resumed thread must not keep another turn's directory, sandbox or policy.
    const settings = {
      cwd: inv.cwd,
      sandbox: inv.fullAccess ? ("danger-full-access" as const) : ("workspace-write" as const),
      approvalPolicy: opts.onApproval ? ("on-request" as const) : ("never" as const),
    };
    const { thread } = inv.threadId
      ? await rpc.request("thread/resume", { threadId: inv.threadId, ...settings, excludeTurns: true })
      : await rpc.request("thread/start", settings);
    publish({ ...view.state, threadId: thread.id });
    if (ctl.stop) return;
    const started = await rpc.request("turn/start", { threadId: thread.id, input: textInput(opts.prompt) });
    turn = { threadId: thread.id, turnId: started.turn.id };
    const running = turn;
    // A stop that came while the turn was starting: interrupt it now that it has an id.
    if (ctl.stop) {
      rpc.request("turn/interrupt", running).catch(() => undefined);
      return;
    }
    opts.onTurnStarted?.({
      ...running,
      steer: async (text) => {
        await rpc.request("turn/steer", {
          threadId: running.threadId,
          input: textInput(text),
          expectedTurnId: running.turnId,
        });
      },
    });
  };

  if (pid) await opts.onSpawn?.(pid, processStartTime(pid));
  const onAbort = () => stop("cancelled");
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });

  try {
    await start().catch((err: unknown) => {
      // Codex refused (a thread it cannot resume…) or died (its stderr says why): the turn ends
      // without a turn event.
      if (!ctl.stop && err instanceof RpcError && err.code !== CONNECTION_CLOSED)
        publish({ ...view.state, lastError: err.message });
      rpc.end();
    });
    await rpc.closed;
    const result = await child;
    const { state } = view;
    return {
      state,
      ended: ctl.stop?.reason ?? (state.turnCompleted ? "completed" : state.turnFailed ? "failed" : "exited"),
      watchdog: ctl.stop?.watchdog ?? null,
      exitCode: typeof result.exitCode === "number" ? result.exitCode : null,
      stderrTail: stderrTail(opts.stderrFile),
    };
  } finally {
    watchdogs.clear();
    approvalsStop.abort();
    for (const t of timers) clearTimeout(t);
    opts.signal?.removeEventListener("abort", onAbort);
    // Whatever is left of Codex's group goes with it.
    if (pid) killGroup(pid, "SIGKILL");
  }
}

/** Keeps a file change's diffs from its `item/started`: its approval request will not carry them. */
function rememberChanges(fileChanges: Map<string, FileUpdateChange[]>, item: ThreadItem): void {
  if (item.type === "fileChange") fileChanges.set(item.id, item.changes);
}
