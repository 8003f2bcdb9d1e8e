import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { Job, JobResult, PgBoss, QueueOptions } from "pg-boss";
import { addDatabaseCompanion, type Engine, type Executor } from "../../db/client";
import { env } from "../../env";
import { errorField, log } from "../../log";
import { messageWorkerRequest, type ScheduledWork, wantMessageWorkers } from "./worker-request";

// The durable job queue (issue 28, decision 0053): pg-boss on the store's own database, PGlite or
// PostgreSQL. A message is a job created in the SAME transaction as the change that causes it
// (enqueueMessage, the one way store code creates jobs), so a change and its messages commit or roll
// back together; workers in every instance deliver them (SKIP LOCKED), retry with exponential
// backoff and, after the last try, leave a dead letter that ops can send again (/ops/messages).
//
// On PGlite the queue shares the one connection with the store: pg-boss must be started (its
// queues known to it) before any transaction creates a job, or its own lookups would wait for the
// transaction that waits for them. It therefore starts with the database (db/client.ts companions)
// and enqueueMessage refuses to run before that.

export const MESSAGE_QUEUES = ["mail", "sms"] as const;
export type MessageQueue = (typeof MESSAGE_QUEUES)[number];
/** Where a message goes after its last failed try: kept for ops, never worked. */
export const deadLetterQueue = (queue: MessageQueue) => `${queue}-dead`;

export type { ScheduledWork } from "./worker-request";

/** A job's payload: which message (the renderer reads the rest from the database at delivery). */
export type MessageData = { kind: string } & Record<string, unknown>;

/** What delivering one message may report back (kept as the job's output, shown to ops). */
export type DeliveryOutcome = { delivered: true; to?: string } | { refused: string } | { skipped: string };
type Deliverer = (data: MessageData, job: { id: string; retryCount: number }) => Promise<DeliveryOutcome>;

const deliverers = new Map<MessageQueue, Deliverer>();

/** The worker of a queue (deliver.ts): one per queue, registered at module load. */
export function setDeliverer(queue: MessageQueue, deliver: Deliverer): void {
  deliverers.set(queue, deliver);
}

/**
 * The queues' retry policy: 5 more tries, each wait about double the one before (jitter), the
 * first one MESSAGE_RETRY_SECONDS (60 s: a refused SMTP or SMS is tried again over about an hour).
 * An attempt still active after expireInSeconds (its process died) is tried again.
 */
function queueOptions(queue: MessageQueue): QueueOptions & { deadLetter: string; notify: boolean } {
  const first = env().messageRetrySeconds;
  return {
    retryLimit: 5,
    retryDelay: first,
    retryBackoff: true,
    retryDelayMax: first * 30,
    expireInSeconds: 60,
    // A one-time code in an SMS job's data is not kept once sent (it is valid 30 minutes anyway).
    deleteAfterSeconds: queue === "sms" ? 15 * 60 : 7 * 24 * 3600,
    deadLetter: deadLetterQueue(queue),
    notify: true,
  };
}

let boss: PgBoss | null = null;
let starting: Promise<void> | null = null;

addDatabaseCompanion({
  start: (engine) => (starting = startQueue(engine)),
  stop: stopQueue,
});

/** The pg-boss schema's name (the store's own tables stay in public; drizzle-kit ignores this one). */
export const JOB_SCHEMA = "pgboss";

async function startQueue(engine: Engine) {
  const { PgBoss, fromPglite } = await import("pg-boss");
  // Few background passes: on PGlite every statement holds the store's one connection, and every
  // pass costs memory; the numbers are in decision 0053.
  const quiet = {
    superviseIntervalSeconds: 60,
    maintenanceIntervalSeconds: 300,
    monitorIntervalSeconds: 300,
    queueCacheIntervalSeconds: 300,
    persistQueueStats: false,
    monitorVacuum: false,
    reindex: false,
    registerInstance: false,
    useListenNotify: true,
  };
  const created =
    engine.kind === "pglite"
      ? new PgBoss({ backend: "pglite", db: fromPglite(engine.client), schema: JOB_SCHEMA, ...quiet })
      : new PgBoss({ connectionString: engine.url, schema: JOB_SCHEMA, max: 3, application_name: "toko-pegawai-jobs", ...quiet });
  created.on("error", (error) => log.warn({ err: errorField(error) }, "job queue: background error"));
  created.on("warning", (warning) => log.warn({ warning: warning.message }, "job queue: warning"));
  await created.start();
  const existing = new Set((await created.getQueues()).map((q) => q.name));
  for (const queue of MESSAGE_QUEUES) {
    const { deadLetter, ...options } = queueOptions(queue);
    // A failed e-mail waits 7 days for 'Kirim Ulang' (what /kebijakan-privasi promises for copies of
    // messages). A failed SMS holds a one-time code (valid 30 minutes) and a phone number: its dead
    // letter is gone after an hour (issue 35), a resend later would carry a dead code anyway.
    const keep = queue === "sms" ? 3600 : 7 * 24 * 3600;
    const deadLetterOptions = { retentionSeconds: keep, deleteAfterSeconds: keep };
    if (existing.has(deadLetter)) await created.updateQueue(deadLetter, deadLetterOptions);
    else await created.createQueue(deadLetter, deadLetterOptions);
    // A queue made by an earlier start keeps its options unless told: this start's retry policy wins.
    if (existing.has(queue)) await created.updateQueue(queue, { ...options, deadLetter });
    else await created.createQueue(queue, { ...options, deadLetter });
  }
  boss = created;
  if (messageWorkerRequest().wanted) await startWorkers(created);
}

async function startWorkers(running: PgBoss) {
  for (const queue of MESSAGE_QUEUES) {
    // A new job wakes the worker at once (LISTEN/NOTIFY); a retry coming due is found by the poll,
    // which runs about as often as the shortest retry wait (10 s with the default 60 s): on PGlite
    // each poll holds the store's one connection. Up to 5 jobs a fetch, each settled on its own;
    // while fetches come back full, no pause.
    const poll = Math.min(10, Math.max(1, env().messageRetrySeconds * 2));
    await running.work<MessageData>(
      queue,
      { batchSize: 5, burstWhenBatchFull: true, perJobResults: true, pollingIntervalSeconds: poll, notifyPollingIntervalSeconds: poll },
      (jobs) => Promise.all(jobs.map((job) => deliverOne(queue, job))),
    );
  }
  for (const [name, work] of Object.entries(messageWorkerRequest().scheduled)) {
    const { cron, run } = typeof work === "function" ? { cron: "* * * * *", run: work } : work;
    await running.createQueue(name, { retryLimit: 0, expireInSeconds: 300, deleteAfterSeconds: 3600 });
    // One run per cron tick across all instances: the schedule is one row, the cron monitor creates
    // each tick's job once (pg-boss's singleton slot), one worker anywhere takes it.
    await running.schedule(name, cron, {}, { tz: "Asia/Jakarta" });
    await running.work(name, { pollingIntervalSeconds: 30 }, async () => {
      try {
        return { result: await run() };
      } catch (error) {
        log.warn({ job: name, err: errorField(error) }, "scheduled job failed");
        throw error;
      }
    });
  }
}

async function deliverOne(queue: MessageQueue, job: Job<MessageData>): Promise<JobResult> {
  const deliver = deliverers.get(queue);
  try {
    if (!deliver) throw new Error(`no deliverer for the ${queue} queue`);
    const outcome = await deliver(job.data, { id: job.id, retryCount: job.retryCount });
    if ("refused" in outcome) log.info({ queue, job: job.id, kind: job.data.kind, refused: outcome.refused }, "message refused");
    // Settled the moment it is sent, not with the rest of its batch: a crash can then repeat at most
    // the message being sent (same Message-ID), not the whole batch. Fenced to this attempt; pg-boss's
    // own settling of the batch afterwards finds it done.
    await boss
      ?.complete(queue, { id: job.id, retryCount: job.retryCount }, outcome)
      .catch((error: unknown) => log.warn({ queue, job: job.id, err: errorField(error) }, "job queue: completion deferred to the batch"));
    return { id: job.id, status: "completed", output: outcome };
  } catch (error) {
    // pg-boss tries it again later (or, after the last try, moves it to the dead letters).
    log.warn({ queue, job: job.id, kind: job.data.kind, attempt: job.retryCount + 1, err: errorField(error) }, "message not delivered yet");
    return { id: job.id, status: "failed", output: { message: error instanceof Error ? error.message : String(error) } };
  }
}

async function stopQueue() {
  const running = boss;
  boss = null;
  starting = null;
  // Graceful: the deliveries in flight finish (or, past the timeout, are tried again later by any
  // instance); nothing new is fetched. PGlite stays open: it is the store's (closed after this).
  await running?.stop({ graceful: true, timeout: 10_000, close: true });
}

/**
 * Runs the workers (and the once-a-minute jobs) in this process: the server, the tests. Called
 * before or after the database opens; the ops CLI never calls it (it only creates jobs).
 */
export async function startMessageWorkers(work: ScheduledWork = {}): Promise<void> {
  wantMessageWorkers(work);
  if (starting) await starting;
  if (boss) await startWorkers(boss);
}

/** A stable job id for a message key (UUID v5 style): the same key never makes a second job. */
export function messageJobId(key: string): string {
  const hash = crypto.createHash("sha1").update(`toko-pegawai-pln:${key}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Creates a message's job inside the caller's transaction `tx` (or, outside one, on the database
 * itself): committed, a worker delivers it; rolled back, it never existed. `key` (e.g. the order
 * event's id) makes it once-only: a second job with the same key is not created. Returns the job's
 * id (null when the key had a job already).
 */
export async function enqueueMessage(
  tx: Executor,
  queue: MessageQueue,
  data: MessageData,
  options: { key?: string; startAfter?: Date } = {},
): Promise<string | null> {
  if (!boss) throw new Error("The job queue is not started: open the database (getDb) before the transaction that creates messages.");
  const { fromDrizzle } = await import("pg-boss");
  const id = options.key ? messageJobId(options.key) : crypto.randomUUID();
  return boss.send(queue, data, { id, startAfter: options.startAfter, db: fromDrizzle(tx as never, sql as never) });
}

/** The running queue, for the ops page and the tests (null before the database opens). */
export function jobQueue(): PgBoss | null {
  return boss;
}

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/** A job's state and output now (null once deleted or never created). */
export async function messageState(queue: MessageQueue, id: string): Promise<{ state: JobState; output: unknown } | null> {
  if (!boss) return null;
  const job = await boss.getJobById(queue, id);
  return job ? { state: job.state as JobState, output: job.output } : null;
}

/**
 * Waits (polling, at most `timeoutMs`) until the job has had its first try: its outcome when it
 * completed, 'pending' while it is still waiting or being retried (a provider outage).
 */
export async function awaitFirstTry(
  queue: MessageQueue,
  id: string,
  timeoutMs: number,
): Promise<{ done: true; output: DeliveryOutcome } | { done: false }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await messageState(queue, id);
    if (now?.state === "completed") return { done: true, output: now.output as DeliveryOutcome };
    if (!now || now.state === "retry" || now.state === "failed" || Date.now() >= deadline) return { done: false };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
