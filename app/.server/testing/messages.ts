import { sql } from "drizzle-orm";
import { getDb } from "../db/client";
import { queryRows } from "../db/query-rows";
import { type OutboxEntry, readOutbox } from "../store/messages";

// Messages are delivered by the queue's workers a moment after the change that creates them
// (issue 28). The tests wait for what they expect, polling with a deadline: never a fixed sleep.

const POLL_MS = 25;

/** Waits until no message job is waiting, being sent or waiting for a retry (throws after `timeoutMs`). */
export async function settleMessages(timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      await getDb(),
      sql`select count(*)::int as n from pgboss.job where name in ('mail', 'sms') and state in ('created', 'active', 'retry')`,
    );
    if (!row?.n) return;
    if (Date.now() > deadline) {
      const stuck = await queryRows<{ kind: string; state: string; error: string | null }>(
        await getDb(),
        sql`select data->>'kind' as kind, state::text as state, output->>'message' as error from pgboss.job where name in ('mail', 'sms') and state in ('created', 'active', 'retry') limit 5`,
      );
      throw new Error(`${row.n} message(s) still undelivered after ${timeoutMs} ms: ${JSON.stringify(stuck)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The outbox's messages once `ready` holds for them (newest first), or throws after `timeoutMs`. */
export async function waitForOutbox(ready: (entries: OutboxEntry[]) => boolean, timeoutMs = 30_000): Promise<OutboxEntry[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = await readOutbox(1000);
    if (ready(entries)) return entries;
    if (Date.now() > deadline) throw new Error(`the outbox did not get the expected message within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
