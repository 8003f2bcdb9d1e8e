import { sql } from "drizzle-orm";
import { Gauge, type Registry } from "prom-client";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { deadLetterQueue, JOB_SCHEMA, jobQueue, MESSAGE_QUEUES, type MessageQueue } from "./queue";

// What ops see of the messages (issue 28 item 2): /ops/messages lists the ones not delivered yet
// and the failed ones with their last error ('Kirim Ulang' tries a failed one again), and /metrics
// counts jobs per queue and state with the oldest waiting one's age. Read from pg-boss's job table
// directly (one query each), so every instance reports the same.

const jobTable = sql.raw(`${JOB_SCHEMA}.job`);

/** What ops see: waiting (created, or being sent), retrying (a try failed, another comes), failed (no try left: a dead letter). */
export type MessageStatus = "waiting" | "retrying" | "failed";

export type MessageRow = {
  id: string;
  queue: MessageQueue;
  kind: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  nextTryAt: Date | null;
};

const STATUS_OF: Record<string, MessageStatus> = { created: "waiting", active: "waiting", retry: "retrying", failed: "failed" };

/** The messages not delivered yet and the failed ones, newest first (at most `limit`). */
export async function listUndeliveredMessages(filter: MessageStatus | null, limit = 100): Promise<MessageRow[]> {
  const states = Object.entries(STATUS_OF)
    .filter(([, status]) => !filter || status === filter)
    .map(([state]) => state);
  const rows = await queryRows<{
    id: string;
    name: MessageQueue;
    kind: string | null;
    state: string;
    retry_count: number;
    error: string | null;
    created_on: Date;
    start_after: Date;
  }>(
    await getDb(),
    sql`select id, name, data->>'kind' as kind, state::text as state, retry_count, output->>'message' as error, created_on, start_after
        from ${jobTable}
        where name in (${sql.join(
          MESSAGE_QUEUES.map((q) => sql`${q}`),
          sql`, `,
        )}) and state::text in (${sql.join(
          states.map((s) => sql`${s}`),
          sql`, `,
        )})
        order by created_on desc limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    queue: row.name,
    kind: row.kind ?? "-",
    status: STATUS_OF[row.state]!,
    // retry_count counts the tries after the first; a job still waiting has had none.
    attempts: row.state === "created" ? 0 : row.retry_count + (row.state === "active" ? 0 : 1),
    lastError: row.error,
    createdAt: new Date(row.created_on),
    nextTryAt: row.state === "retry" ? new Date(row.start_after) : null,
  }));
}

/**
 * 'Kirim Ulang': a failed message (no try left) gets one more try now; its dead letter is removed
 * (it is live again). False when it is not failed (delivered meanwhile, or already sent again).
 */
export async function resendMessage(queue: MessageQueue, id: string): Promise<boolean> {
  const boss = jobQueue();
  if (!boss || !MESSAGE_QUEUES.includes(queue) || !/^[0-9a-f-]{36}$/i.test(id)) return false;
  const [job] = await queryRows<{ data: unknown }>(
    await getDb(),
    sql`select data from ${jobTable} where name = ${queue} and id = ${id} and state = 'failed'`,
  );
  if (!job) return false;
  // The typings leave CommandResponse empty; it carries the count of jobs changed.
  const result = (await boss.retry(queue, id)) as { affected?: number };
  if (!result.affected) return false;
  await (
    await getDb()
  ).execute(sql`delete from ${jobTable} where name = ${deadLetterQueue(queue)} and data = ${JSON.stringify(job.data)}::jsonb`);
  return true;
}

const JOB_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"] as const;

/** Jobs per queue and state (every known pair, 0 when none) and each queue's oldest waiting job's age. */
export async function jobCounts(): Promise<{
  counts: { queue: string; state: string; count: number }[];
  oldest: { queue: string; seconds: number }[];
}> {
  const db = await getDb();
  const queues = [...MESSAGE_QUEUES, ...MESSAGE_QUEUES.map(deadLetterQueue)];
  const names = sql.join(
    queues.map((q) => sql`${q}`),
    sql`, `,
  );
  const found = await queryRows<{ name: string; state: string; n: number }>(
    db,
    sql`select name, state::text as state, count(*)::int as n from ${jobTable} where name in (${names}) group by 1, 2`,
  );
  const counts = queues.flatMap((queue) =>
    JOB_STATES.map((state) => ({ queue, state, count: found.find((f) => f.name === queue && f.state === state)?.n ?? 0 })),
  );
  const waiting = await queryRows<{ name: string; seconds: number | null }>(
    db,
    sql`select name, extract(epoch from now() - min(created_on))::float8 as seconds from ${jobTable} where name in (${names}) and state::text in ('created', 'retry') group by 1`,
  );
  const oldest = MESSAGE_QUEUES.map((queue) => ({
    queue,
    seconds: Math.max(0, Math.round(waiting.find((w) => w.name === queue)?.seconds ?? 0)),
  }));
  return { counts, oldest };
}

const registered = new WeakSet<Registry>();

/** Adds the job queue's gauges to `registry`, once (http/serving.ts, beside registerStoreMetrics). */
export function registerMessageMetrics(registry: Registry): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  // One read serves both gauges of a scrape.
  let reading: Promise<Awaited<ReturnType<typeof jobCounts>>> | null = null;
  const read = () => (reading ??= jobCounts().finally(() => setTimeout(() => (reading = null), 1000).unref()));
  new Gauge({
    name: "store_jobs",
    help: "Message jobs per queue (mail, sms and their dead letters) and state, read from the job queue at scrape time.",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      const { counts } = await read();
      this.reset();
      for (const { queue, state, count } of counts) this.set({ queue, state }, count);
    },
  });
  new Gauge({
    name: "store_jobs_oldest_waiting_seconds",
    help: "Age of the oldest message job not delivered yet (waiting or waiting for a retry), per queue; 0 when none waits.",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      const { oldest } = await read();
      this.reset();
      for (const { queue, seconds } of oldest) this.set({ queue }, seconds);
    },
  });
}
