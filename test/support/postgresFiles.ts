/** Files only the postgres project runs (PostgreSQL's own features: NOTIFY, several serve). */
export const POSTGRES_ONLY_FILES = [
  "test/engine/postgres.test.ts",
  "test/engine/wakeups.test.ts",
  "test/bot/notifierWakeups.test.ts",
  "test/integration/postgresCli.test.ts",
  "test/integration/multiServe/coordinator.test.ts",
  "test/integration/multiServe/leaseExpiry.test.ts",
  "test/integration/multiServe/adoption.test.ts",
  "test/integration/postgresStop.test.ts",
  "test/engine/postgresLocks.test.ts",
];

/**
 * Test files the postgres project runs (each test on a database of its own, see testDatabase.ts):
 * the PostgreSQL-only ones, every engine test file that uses the database, and the few bot and
 * integration files that reach PostgreSQL-only code, a second time there (see below).
 */
export const POSTGRES_FILES = [
  ...POSTGRES_ONLY_FILES,
  // engine
  "test/engine/schedules/fire.test.ts",
  "test/engine/schedules/scheduleChannel.test.ts",
  "test/engine/audit/audit.test.ts",
  "test/engine/memory/memory.test.ts",
  "test/engine/projects/channelReaders.test.ts",
  "test/engine/projects/channelShares.test.ts",
  "test/engine/projects/threadPrompters.test.ts",
  "test/engine/conversations/requestKey.test.ts",
  "test/engine/conversations/requestOptions.test.ts",
  "test/engine/conversations/threadContext.test.ts",
  "test/engine/usage/usageBudgets.test.ts",
  "test/engine/usage/budgetPaths.test.ts",
  "test/engine/dispatch/dispatcher.test.ts",
  "test/engine/ticker.test.ts",
  "test/engine/conversations/failureLocale.test.ts",
  "test/engine/conversations/followUpFate.test.ts",
  "test/engine/dispatch/hosts.test.ts",
  "test/engine/projects/layout.test.ts",
  "test/engine/conversations/longText.test.ts",
  "test/engine/conversations/machines.test.ts",
  "test/engine/projects/policies.test.ts",
  "test/engine/projects/projectOverlap.test.ts",
  "test/engine/projects/projects.test.ts",
  "test/engine/projects/projectSuggestion.test.ts",
  "test/engine/projects/workspaceMode.test.ts",
  "test/engine/dispatch/reaper.test.ts",
  "test/engine/conversations/recovery.test.ts",
  "test/engine/worker/sandboxPolicy.test.ts",
  "test/engine/workspaces/selfClones.test.ts",
  "test/engine/codex/steerLoop.test.ts",
  "test/engine/conversations/stopOnce.test.ts",
  "test/engine/approvals/approvals.test.ts",
  "test/engine/coordination/decisionCancel.test.ts",
  "test/engine/coordination/decisions.test.ts",
  "test/engine/coordination/incidents.test.ts",
  "test/engine/coordination/lookups.test.ts",
  "test/engine/coordination/machines.test.ts",
  "test/engine/coordination/overview.test.ts",
  "test/engine/coordination/sharedSpecialists.test.ts",
  "test/engine/coordination/specialists.test.ts",
  "test/engine/leases.test.ts",
  "test/engine/engineForgetsSlackMigration.test.ts",
  "test/engine/workspaceModeMigration.test.ts",
  "test/engine/projectNetworkMigration.test.ts",
  "test/engine/projects/network.test.ts",
  "test/engine/lanesMigration.test.ts",
  "test/engine/lanes/lanes.test.ts",
  "test/engine/forge/settings.test.ts",
  "test/engine/forge/fetchPullRequest.test.ts",
  "test/engine/orchestrations/clones.test.ts",
  "test/engine/orchestrations/flow.test.ts",
  "test/engine/orchestrations/guards.test.ts",
  "test/engine/orchestrations/queryPlans.test.ts",
  "test/engine/orchestrations/recovery.test.ts",
  "test/engine/outbox.test.ts",
  "test/engine/files/transfer.test.ts",
  "test/engine/queryPlans.test.ts",
  "test/engine/read/queue.test.ts",
  "test/engine/runs/authorization.test.ts",
  "test/engine/runs/machine.test.ts",
  "test/engine/runs/pingPong.test.ts",
  "test/engine/runs/queryPlans.test.ts",
  "test/engine/runs/resume.test.ts",
  "test/engine/runs/review.test.ts",
  "test/engine/runs/selfRepair.test.ts",
  // Bot and integration files, a second time on PostgreSQL, only where they reach what the engine
  // files above do not. Measured (v8 coverage of the postgres project with and without each bot
  // and integration file, and of the same files on SQLite; issue 17's note): these four reach
  // PostgreSQL-only code; the 23 others that ran here did not (Slack rendering, the bot's logic,
  // the same queries the engine files run), and two of them never opened PostgreSQL at all.
  // A bot on PostgreSQL starting, a second serve on standby, and issue 21's done-when: a
  // schedule fires once per minute across two serve on PostgreSQL.
  "test/bot/schedules.test.ts",
  // The shared intake journal (PostgreSQL only): duplicate keys, deferral, adoption after a lease.
  "test/bot/intake/sharedIntake.test.ts",
  // Health on a read-only PostgreSQL session.
  "test/bot/healthStorage.test.ts",
  // Worker hosts on other machines need PostgreSQL (docs/machines.md): `codexpi host`, end to end.
  "test/integration/workerHosts.test.ts",
  // …and the files of their projects cross through it (S-FILE-13).
  "test/bot/filesOnHost.test.ts",
  // One Slack message, one turn, with its twin deliveries reaching two serve at once (S-ONE-07).
  "test/bot/oneMessage.test.ts",
  // A thread is the team's: told once across two serve, teammates' turns, --thread-prompters (S-THREAD).
  "test/bot/threadTeam.test.ts",
  // The forge front end's journal, links and notices (its own tables, issue 33: S-FORGE-01…04).
  "test/forge/receiving.test.ts",
  "test/forge/housekeeping.test.ts",
  "test/forge/doctor.test.ts",
  // CI fixes' settings and tries (migration 0040, S-FORGE-28).
  "test/forge/ciTries.test.ts",
  // The conversation of a pull request a lane opened (S-FORGE-59).
  "test/forge/pullLanes.test.ts",
  // Polling's settings and durable cursors (migration 0042, S-FORGE-49).
  "test/forge/pollingStore.test.ts",
  // A burst of requests journaled by one multi-row insert in the shared journal (S-ACK-01, 02).
  "test/bot/intake/groupCommit.test.ts",
];

const NO_DATABASE = "uses no database";

/**
 * Engine test files that run on SQLite only, and why: they test SQLite itself (its migrations,
 * per-connection settings, the statements it is sent) or use no database at all, so a second run
 * would test nothing new. test/lint/postgresFiles.test.ts checks that every engine test file is in
 * exactly one of the two lists.
 */
export const SQLITE_ONLY_ENGINE_FILES: Record<string, string> = {
  "test/engine/database.test.ts": "SQLite's upgrades of earlier files and its per-connection pragmas",
  "test/engine/migrations.test.ts":
    "landed migration files frozen by hash; 0008's repair of SQLite files an edited 0002 left incomplete",
  "test/engine/migrationStatements.test.ts": "the exact statements SQLite gets from the migrations",
  "test/engine/forge/credentials.test.ts": NO_DATABASE,
  "test/engine/setup/setup.test.ts":
    "a setup's jail, its secrets file and its cache on disk around one lane row: the dialect plays no part (lanes.test.ts runs lanes on both)",
  "test/engine/lanes/changes.test.ts": NO_DATABASE,
  "test/engine/files/files.test.ts": NO_DATABASE,
  "test/engine/conversations/requestOptionsParse.test.ts": NO_DATABASE,
  "test/engine/threadContext/threadContext.test.ts": NO_DATABASE,
  "test/engine/lanes/merge.test.ts": NO_DATABASE,
  "test/engine/schedules/cron.test.ts": NO_DATABASE,
  "test/engine/network/policy.test.ts": NO_DATABASE,
  "test/engine/forge/pullRequests.test.ts": NO_DATABASE,
  "test/engine/forge/push.test.ts": NO_DATABASE,
  "test/engine/forge/fetchBranch.test.ts": NO_DATABASE,
  "test/engine/forge/remoteUrl.test.ts": NO_DATABASE,
  "test/engine/forge/polling.test.ts": NO_DATABASE,
  "test/engine/gateway/modelGateway.test.ts": NO_DATABASE,
  "test/engine/worker/egressOf.test.ts": NO_DATABASE,
  "test/engine/egress/egressProxy.test.ts": NO_DATABASE,
  "test/engine/lanes/pushAttack.test.ts":
    "git, jails and TLS servers around one lane: the dialect plays no part (lanes.test.ts runs lanes on both)",
  "test/engine/forge/projectForge.test.ts":
    "git and a fake forge around one project row: the dialect plays no part (settings.test.ts runs the settings on both)",
  "test/engine/approvalsMigration.test.ts":
    "upgrades an SQLite file written before 0012 (no PostgreSQL database predates PostgreSQL support) and re-runs it: SQLite's migrations are not transactional",
  "test/engine/projectReadersMigration.test.ts": "as approvalsMigration (0011)",
  "test/engine/slackAddressesMigration.test.ts": "as approvalsMigration (0009)",
  "test/engine/steerMigration.test.ts": "as approvalsMigration (0013)",
  "test/engine/orchestrations/machine.test.ts":
    "a pure state machine, and 0006 re-run on a migrated SQLite file (idempotence SQLite's non-transactional migrations need)",
  "test/engine/codex/agentInstructions.test.ts": NO_DATABASE,
  "test/engine/codex/codexEvents.test.ts": NO_DATABASE,
  "test/engine/codex/codexRunner.test.ts": `${NO_DATABASE} (the real Codex on its own)`,
  "test/engine/conversations/progress.test.ts": NO_DATABASE,
  "test/engine/conversations/sessionCopy.test.ts": NO_DATABASE,
  "test/engine/appServerJsonRpc.test.ts": NO_DATABASE,
  "test/engine/appServerNotifications.test.ts": NO_DATABASE,
  "test/engine/appServerProtocol.test.ts": NO_DATABASE,
  "test/engine/appServerRunner.test.ts": `${NO_DATABASE} (the real Codex app-server on its own)`,
  "test/engine/appServerStandIn.test.ts": NO_DATABASE,
  "test/engine/isolation/agentNetwork.test.ts": NO_DATABASE,
  "test/engine/approvals/runnerChoice.test.ts": NO_DATABASE,
  "test/engine/isolation/agentFiles.test.ts": NO_DATABASE,
  "test/engine/kernel.test.ts": `${NO_DATABASE} (use cases and a source scan)`,
  "test/engine/orchestrations/verificationJail.test.ts": `${NO_DATABASE} (the jailed test runner)`,
  "test/engine/isolation/repoGit.test.ts": `${NO_DATABASE} (git on agent-written repositories)`,
  "test/engine/isolation/jailMounts.test.ts": `${NO_DATABASE} (the jail's mounts from agent-written files)`,
  "test/engine/protocol/markers.test.ts": NO_DATABASE,
  "test/engine/protocol/normalizeName.test.ts": NO_DATABASE,
  "test/engine/protocol/quotedText.test.ts": NO_DATABASE,
  "test/engine/protocol/withoutDecisionMarker.test.ts": NO_DATABASE,
  "test/engine/runs/stepMachine.test.ts": NO_DATABASE,
  "test/engine/stateMachine.test.ts": NO_DATABASE,
  "test/engine/transitionTables.test.ts": `${NO_DATABASE} (compile checks of the transition tables)`,
};
