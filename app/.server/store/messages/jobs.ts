import { errorField, log } from "../../log";

/**
 * Work done after the answer has been given, in this process, one job at a time: sending mail, and
 * anything whose duration must not show in the response time (the account lookups behind "forgot
 * password" and "register" would otherwise tell who has an account). Jobs start on a later turn of
 * the event loop than the request that queued them, never inside it. A failing job is logged once.
 *
 * In-process on purpose (DESIGN: one process): a job queued just before a crash is lost, which
 * costs one e-mail the user can ask for again.
 */
type Job = { name: string; run: () => Promise<unknown> };

const queue: Job[] = [];
let draining: Promise<void> | null = null;

export function runAfterResponse(name: string, run: () => Promise<unknown>): void {
  queue.push({ name, run });
  draining ??= drain();
}

async function drain() {
  await new Promise((resolve) => setImmediate(resolve));
  for (let job = queue.shift(); job; job = queue.shift()) {
    try {
      await job.run();
    } catch (error) {
      log.error({ job: job.name, err: errorField(error) }, "job failed");
    }
  }
  draining = null;
}

/** Waits until every queued job has run (tests; a clean shutdown). */
export async function settleJobs(): Promise<void> {
  while (draining) await draining;
}
