import type { Readable, Writable } from "node:stream";
import { type CodexState, initialCodexState, isReconnecting, reconnecting } from "../codexEvents.js";
import { newTurnMark, startCodexProcess } from "../turnProcess.js";
import {
  superviseCodexTurn,
  type TurnOptions,
  type TurnResult,
  type TurnSupervisor,
} from "../turnSupervisor.js";
import { approvalRequest, COMMAND_APPROVAL, FILE_CHANGE_APPROVAL } from "./approvalRequests.js";
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from "./approvalTypes.js";
import {
  CONNECTION_CLOSED,
  METHOD_NOT_FOUND,
  RpcError,
  type RpcConnection,
  rpcConnection,
} from "./jsonRpc.js";
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

/** A turn's input: its text, then its images as local files Codex reads and sends to the model. */
const turnInput = (text: string, images: readonly string[] = []): UserInput[] => [
  ...textInput(text),
  ...images.map((path): UserInput => ({ type: "localImage", path })),
];

/**
 * Runs one Codex turn through `codex app-server` (JSON-RPC over stdio), started like the exec
 * runner (own process group, same jail, stderr to the log), supervised by the same turn supervisor
 * and ending with the same TurnResult: its notifications fold into the same CodexState. Codex can
 * ask for approvals here: they go to `onApproval`, and the watchdogs are paused while one waits for
 * a person. A stop interrupts the turn through the protocol first, then signals Codex as exec does.
 */
export async function runAppServerTurn(opts: AppServerTurnOptions): Promise<TurnResult> {
  const inv = opts.invocation;
  const configArgs = Object.entries(inv.config ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  const mark = newTurnMark();
  const child = startCodexProcess(opts, inv.cwd, ["app-server", ...configArgs], "pipe", mark);
  const session = new AppServerTurn(opts, child.pid, mark, child.stdout!, child.stdin!);
  try {
    await session.supervisor.attach();
    await session.start().catch((err: unknown) => session.startFailed(err));
    await session.rpc.closed;
    const result = await child;
    return session.supervisor.result(session.state, result.exitCode);
  } finally {
    session.close();
  }
}

/** One app-server turn's conversation with Codex: the protocol's side of the runner. */
class AppServerTurn {
  readonly supervisor: TurnSupervisor;
  readonly rpc: RpcConnection<ClientRequests>;
  private view: AppServerView = { state: initialCodexState(), writing: null };
  private turn: { threadId: string; turnId: string } | null = null;
  private turnOver = false;
  private readonly fileChanges = new Map<string, FileUpdateChange[]>();
  private readonly approvalsStop = new AbortController();
  private waitingApprovals = 0;
  private readonly interruptGrace: number;
  private readonly unlink: () => void;

  constructor(
    private readonly opts: AppServerTurnOptions,
    pid: number | undefined,
    mark: string,
    stdout: Readable,
    stdin: Writable,
  ) {
    this.interruptGrace = opts.interruptGraceMs ?? 3_000;
    this.supervisor = superviseCodexTurn(opts, pid, mark, () => this.onStop());
    // The gateway's retries of an unreachable model count as Codex's own would.
    this.unlink =
      opts.modelLink?.subscribe((e) => {
        if (e.kind === "reached") return this.supervisor.watchdogs.touch();
        this.supervisor.watchdogs.failing();
        this.publish(reconnecting(this.view.state, e.notice));
      }) ?? (() => undefined);
    this.rpc = rpcConnection<ClientRequests>(stdout, stdin, {
      onNotification: (method, params) => this.onNotification(method, params),
      onRequest: async (method, params) => {
        if (method !== COMMAND_APPROVAL && method !== FILE_CHANGE_APPROVAL)
          throw new RpcError(METHOD_NOT_FOUND, `codexpi does not answer ${method}`);
        const request = approvalRequest(
          method,
          params as ServerRequests[typeof method][0],
          this.fileChanges,
          opts.invocation.cwd,
        );
        return { decision: await this.decide(request) };
      },
    });
  }

  get state(): CodexState {
    return this.view.state;
  }

  private publish(next: CodexState): void {
    if (next === this.view.state) return;
    this.view = { ...this.view, state: next };
    this.opts.onState?.(next);
  }

  private onNotification(method: string, params: unknown): void {
    if (isProgress(method)) this.supervisor.watchdogs.touch();
    const n = knownNotification(method, params);
    if (!n) return;
    // A retry of a model it cannot reach: the connection limit starts (progress stops it).
    if (n.method === "error" && (n.params.willRetry || isReconnecting(n.params.error.message)))
      this.supervisor.watchdogs.failing();
    if (n.method === "item/started") rememberChanges(this.fileChanges, n.params.item);
    const before = this.view.state;
    try {
      this.view = applyNotification(this.view, n);
    } catch {
      return; // a field the pinned protocol promised is missing: ignored, like a malformed JSONL line
    }
    if (this.view.state !== before) this.opts.onState?.(this.view.state);
    if (n.method === "turn/completed" && !this.turnOver) {
      this.turnOver = true;
      // One turn per app-server: once it is over, closing stdin ends the process. The watchdogs
      // have nothing left to guard; one that lingers gets the signals after the grace.
      this.supervisor.watchdogs.clear();
      this.rpc.end();
      this.supervisor.signalCodex(this.interruptGrace);
    }
  }

  // A person may take hours: the watchdogs wait with them, and a stop answers `cancel` at once.
  private async decide(request: ApprovalRequest): Promise<ApprovalDecision> {
    const { onApproval } = this.opts;
    if (!onApproval || this.approvalsStop.signal.aborted) return onApproval ? "cancel" : "decline";
    if (this.waitingApprovals++ === 0) this.supervisor.watchdogs.pause();
    try {
      const stopped = new Promise<ApprovalDecision>((resolve) =>
        this.approvalsStop.signal.addEventListener("abort", () => resolve("cancel"), { once: true }),
      );
      return await Promise.race([onApproval(request, this.approvalsStop.signal), stopped]);
    } catch {
      return "decline"; // an approval that could not be asked is not granted
    } finally {
      if (--this.waitingApprovals === 0) this.supervisor.watchdogs.resume();
    }
  }

  /** The app-server's part of a stop (the supervisor has recorded it and cleared the watchdogs). */
  private onStop(): void {
    this.approvalsStop.abort();
    if (this.turn && !this.turnOver) {
      // The clean way: Codex ends the turn as `interrupted` and the thread stays resumable.
      this.rpc.request("turn/interrupt", this.turn).catch(() => undefined);
      this.supervisor.signalCodex(this.interruptGrace);
    } else {
      this.rpc.end();
      this.supervisor.signalCodex();
    }
  }

  /** Opens the thread (new or resumed) and starts the turn; a stop meanwhile interrupts it. */
  async start(): Promise<void> {
    const { rpc, opts } = this;
    const inv = opts.invocation;
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
    this.publish({ ...this.view.state, threadId: thread.id });
    if (this.supervisor.stopped()) return;
    // The pinned protocol's per-turn overrides (TurnStartParams.model, .effort): every turn sends
    // them, so a resumed thread runs with the conversation's options, not the last turn's.
    const started = await rpc.request("turn/start", {
      threadId: thread.id,
      input: turnInput(opts.prompt, inv.images),
      ...(inv.model ? { model: inv.model } : {}),
      ...(inv.effort ? { effort: inv.effort } : {}),
    });
    const running = { threadId: thread.id, turnId: started.turn.id };
    this.turn = running;
    // A stop that came while the turn was starting: interrupt it now that it has an id.
    if (this.supervisor.stopped()) {
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
  }

  /**
   * Codex refused (a thread it cannot resume…) or died (its stderr says why): the turn ends
   * without a turn event.
   */
  startFailed(err: unknown): void {
    if (!this.supervisor.stopped() && err instanceof RpcError && err.code !== CONNECTION_CLOSED)
      this.publish({ ...this.view.state, lastError: err.message });
    this.rpc.end();
  }

  close(): void {
    this.unlink();
    this.approvalsStop.abort();
    this.supervisor.close();
  }
}

/** Keeps a file change's diffs from its `item/started`: its approval request will not carry them. */
function rememberChanges(fileChanges: Map<string, FileUpdateChange[]>, item: ThreadItem): void {
  if (item.type === "fileChange") fileChanges.set(item.id, item.changes);
}
