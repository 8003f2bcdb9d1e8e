// Whether this process runs the message workers, and which scheduled jobs it adds: asked for by the
// server (entry.server.tsx, through startMessageWorkers) and by the unit tests' setup. Kept apart
// from queue.ts and without imports so that the tests' setup can ask before it knows whether a test
// file uses the store at all: a file that never opens the database then never loads the queue, the
// schema or pg-boss (issue 44: about 2 s of CPU per file), and one that does starts its workers with
// the database (queue.ts reads this when it starts).

/**
 * Jobs that the schedule creates once a minute across all instances (not once per instance), or on
 * their own cron (`{ cron, run }`, in WIB).
 */
export type ScheduledWork = Record<string, (() => Promise<unknown>) | { cron: string; run: () => Promise<unknown> }>;

const request: { wanted: boolean; scheduled: ScheduledWork } = { wanted: false, scheduled: {} };

/** Asks for the workers (and adds `work` to the schedule); queue.ts starts them with the database. */
export function wantMessageWorkers(work: ScheduledWork = {}): void {
  request.wanted = true;
  request.scheduled = { ...request.scheduled, ...work };
}

/** What has been asked for so far (read by queue.ts when the queue starts). */
export function messageWorkerRequest(): Readonly<typeof request> {
  return request;
}
