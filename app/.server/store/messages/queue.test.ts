import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { settleMessages, waitForOutbox } from "../../testing/messages";
import { ownDatabaseForThisFile } from "../../testing/own-database";
import { defineMail } from "./deliver";
import { renderEmail } from "./email-layout";
import { jobCounts, listUndeliveredMessages, resendMessage } from "./ops";
import { enqueueMessage, messageJobId, messageState } from "./queue";

ownDatabaseForThisFile();

// The job queue's wiring (issue 28): jobs are created in the caller's transaction, delivered by the
// workers (started for the tests in tests/vitest.setup.ts), retried, dead-lettered.

const attempts = new Map<string, number>();
defineMail("queue-test", async (data) => {
  const to = String(data.to);
  attempts.set(to, (attempts.get(to) ?? 0) + 1);
  if (attempts.get(to)! <= Number(data.failures ?? 0)) throw new Error(`SMTP 451 try again later (${to})`);
  return renderEmail({
    to,
    subject: `Uji ${to}`,
    greeting: "Halo,",
    lines: ["Pesan uji."],
    button: { label: "Buka", link: "https://toko.example/" },
    footer: "-",
  });
});

const unique = () => `uji-${crypto.randomUUID().slice(0, 8)}@example.test`;
const jobsOf = async (to: string) =>
  queryRows<{ name: string; state: string; retry_count: number }>(
    await getDb(),
    sql`select name, state::text as state, retry_count from pgboss.job where data->>'to' = ${to} order by created_on`,
  );

describe("the message queue", () => {
  it("never runs a job created in a transaction that rolled back, and runs the committed one once", async () => {
    const db = await getDb();
    const lost = unique();
    const kept = unique();
    await expect(
      db.transaction(async (tx) => {
        await enqueueMessage(tx, "mail", { kind: "queue-test", to: lost });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await db.transaction(async (tx) => void (await enqueueMessage(tx, "mail", { kind: "queue-test", to: kept })));
    const outbox = await waitForOutbox((entries) => entries.some((m) => m.to === kept));
    await settleMessages();
    expect(outbox.filter((m) => m.to === kept)).toHaveLength(1);
    expect((await waitForOutbox(() => true)).filter((m) => m.to === lost)).toHaveLength(0);
    expect(await jobsOf(lost)).toEqual([]);
    expect(attempts.get(lost)).toBeUndefined();
  });

  it("creates one job per key, and the e-mail's Message-ID is the same on every try", async () => {
    const db = await getDb();
    const to = unique();
    const key = `queue-test:${to}`;
    const first = await enqueueMessage(db, "mail", { kind: "queue-test", to, failures: 1 }, { key });
    const second = await enqueueMessage(db, "mail", { kind: "queue-test", to }, { key });
    expect(first).toBe(messageJobId(key));
    expect(second).toBeNull();
    const [mail] = (await waitForOutbox((entries) => entries.some((m) => m.to === to))).filter((m) => m.to === to);
    expect(attempts.get(to)).toBe(2);
    expect(mail!.messageId).toBe(`<${first}@localhost>`);
    expect((await messageState("mail", first!))?.state).toBe("completed");
  });

  it("tries a refused delivery again with a growing wait, then leaves a dead letter", async () => {
    const db = await getDb();
    const to = unique();
    const id = (await enqueueMessage(db, "mail", { kind: "queue-test", to, failures: 99 }))!;
    // After each failed try: how long the queue would wait before the next one; then the test moves
    // that time forward (the waits are seconds to minutes, too long for a test).
    const waits: number[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [job] = await queryRows<{ state: string; wait: number }>(
        db,
        sql`select state::text as state, extract(epoch from start_after - now())::float8 as wait from pgboss.job where name = 'mail' and id = ${id}`,
      );
      if (job!.state === "failed") break;
      if (job!.state === "retry" && waits.length < (attempts.get(to) ?? 0)) {
        waits.push(job!.wait);
        await db.execute(sql`update pgboss.job set start_after = now() where name = 'mail' and id = ${id} and state = 'retry'`);
      }
      if (Date.now() > deadline) throw new Error(`still ${job!.state} after ${waits.length} retries`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(attempts.get(to)).toBe(6);
    expect(waits).toHaveLength(5);
    // Exponential backoff with jitter from MESSAGE_RETRY_SECONDS=1: about 1–2, 2–4, 4–8, 8–16, 16–30 s.
    expect(waits[0]).toBeLessThan(2.5);
    expect(waits[4]).toBeGreaterThan(10);
    const jobs = await jobsOf(to);
    expect(jobs).toEqual([
      { name: "mail", state: "failed", retry_count: 5 },
      { name: "mail-dead", state: "created", retry_count: 0 },
    ]);

    // What ops see (/ops/messages, /metrics), and 'Kirim Ulang': one more try, the dead letter gone.
    const [row] = (await listUndeliveredMessages("failed")).filter((m) => m.id === id);
    expect(row).toMatchObject({
      queue: "mail",
      kind: "queue-test",
      status: "failed",
      attempts: 6,
      lastError: `SMTP 451 try again later (${to})`,
    });
    const { counts } = await jobCounts();
    expect(counts.find((c) => c.queue === "mail-dead" && c.state === "created")!.count).toBeGreaterThanOrEqual(1);
    expect(counts.find((c) => c.queue === "sms" && c.state === "failed")).toEqual({ queue: "sms", state: "failed", count: 0 });
    expect(await resendMessage("mail", id)).toBe(true);
    expect((await jobsOf(to)).filter((j) => j.name === "mail-dead")).toEqual([]);
    expect(await resendMessage("mail", id)).toBe(false); // not failed any more
    // One more try; still refused, so failed again with one dead letter.
    await expect.poll(async () => (await messageState("mail", id))?.state, { timeout: 15_000 }).toBe("failed");
    expect(attempts.get(to)).toBe(7);
    expect((await jobsOf(to)).filter((j) => j.name === "mail-dead")).toHaveLength(1);
  });
});
