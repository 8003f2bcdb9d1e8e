import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { env } from "../../env";
import { log } from "../../log";
import { countMailFailure } from "../../metrics";

export type MailMessage = { to: string; subject: string; text: string; html: string };
/** `messageId`: the stable Message-ID of a queued message (the same on every try of it). */
export type OutboxEntry = MailMessage & { id: string; sentAt: string; messageId?: string };

let transport: { sendMail(m: MailMessage & { from: string; messageId?: string }): Promise<unknown> } | undefined;

/**
 * Sends an e-mail over SMTP_URL. Without SMTP_URL the message is written to the outbox in DATA_DIR
 * (shown at /outbox) and its first link is logged, so the demo works without a mail server. Called
 * by the mail queue's worker only (deliver.ts): store code creates a job instead.
 */
export async function sendMail(message: MailMessage, messageId?: string): Promise<void> {
  const e = env();
  if (e.smtpUrl) {
    if (!transport) {
      const nodemailer = await import("nodemailer");
      // Bounded waits: a hung server fails the try (retried later) instead of holding the worker.
      transport = nodemailer.createTransport(e.smtpUrl, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
    }
    try {
      await transport.sendMail({ from: e.mailFrom, ...message, messageId });
    } catch (error) {
      countMailFailure();
      throw error;
    }
    return;
  }
  await writeToOutbox(message, messageId);
  // Never the link: it holds an activation or reset secret (the demo reads it at /outbox).
  log.info({ subject: message.subject }, "e-mail written to the outbox");
}

/** Keeps a message in the demo outbox in DATA_DIR (also used by the sandbox SMS sender, sms.ts). */
export async function writeToOutbox(message: MailMessage, messageId?: string): Promise<OutboxEntry> {
  const dir = outboxDir();
  // Messages hold working reset links and codes: only the server's user may list or read them. The
  // chmod also closes a folder an older version made world-readable.
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
  const sentAt = new Date().toISOString();
  const id = `${sentAt.replace(/[-:.TZ]/g, "")}-${crypto.randomBytes(4).toString("hex")}`;
  const entry: OutboxEntry = { id, sentAt, ...message, ...(messageId ? { messageId } : {}) };
  // Written under another name, then renamed: a reader (the outbox page, the headless buyer) never
  // sees half a message.
  const file = path.join(dir, `${id}.json`);
  await fs.writeFile(`${file}.partial`, JSON.stringify(entry, null, 2), { mode: 0o600 });
  await fs.rename(`${file}.partial`, file);
  return entry;
}

/** How long the demo outbox keeps a message (issue 35): its links and codes are long expired by then. */
export const OUTBOX_KEEP_DAYS = 7;

/** Deletes the outbox's messages older than OUTBOX_KEEP_DAYS at `now`; returns how many. Safe in every instance at once. */
export async function pruneOutbox(now = new Date()): Promise<number> {
  const dir = outboxDir();
  const cutoff = now.getTime() - OUTBOX_KEEP_DAYS * 86_400_000;
  let pruned = 0;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat || stat.mtimeMs >= cutoff) continue;
    // Another instance may have taken it first: a missing file is already gone.
    if (
      await fs.rm(file).then(
        () => true,
        () => false,
      )
    )
      pruned += 1;
  }
  return pruned;
}

function outboxDir() {
  return path.join(env().dataDir, "outbox");
}

/** True when mail goes to the on-disk outbox (no SMTP_URL). */
export function usesOutbox() {
  return !env().smtpUrl;
}

let generatedOutboxKey: string | undefined;

/** The key that opens /outbox from another machine: OUTBOX_KEY, else a new random one per start. */
export function outboxKey(): string {
  generatedOutboxKey ??= env().outboxKey ?? crypto.randomBytes(18).toString("base64url");
  return generatedOutboxKey;
}

/**
 * The /outbox page exists while there is no SMTP_URL: for the demo, and for a store started for real
 * without a mail server (issue 38, decision 0058), whose admin otherwise could not activate anyone.
 * From other machines it needs the key printed at start (decision 0005).
 */
export function outboxPageEnabled(): boolean {
  return usesOutbox();
}

/**
 * Decision 0005: the outbox holds working verification and reset links of every account, so the
 * page answers only (a) requests made on this machine straight to the app (the socket is loopback,
 * no proxy in between, a loopback Host: set by request-guards.ts from the socket, never from a
 * header the client controls), or (b) requests carrying the outbox key from the server's log. In
 * development (`react-router dev`, local by default) it is open.
 */
export function mayReadOutbox(url: URL, isLoopback: boolean): boolean {
  if (!outboxPageEnabled()) return false;
  if (!env().isProduction || isLoopback) return true;
  const given = url.searchParams.get("key") ?? "";
  const expected = outboxKey();
  return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The start-up warning when mail is not delivered (production without SMTP_URL): loud, several lines. */
export function outboxWarning(): string {
  const e = env();
  const bar = "!".repeat(78);
  const lines = [
    bar,
    "!! E-MAIL IS NOT DELIVERED: SMTP_URL is not set.",
    "!! Account activation and password-reset e-mails reach nobody; they are only written to",
    `!!   ${path.join(e.dataDir, "outbox")}.`,
  ];
  if (outboxPageEnabled()) {
    lines.push(
      "!! Outbox page (until SMTP_URL is set): from this machine only, or from anywhere with the key:",
      `!!   ${e.appUrl}/outbox   (this machine)`,
      `!!   ${e.appUrl}/outbox?key=${outboxKey()}   (keep it secret: it opens every account)`,
    );
  } else {
    lines.push("!! The /outbox page is off (it exists only with DEMO_DATA=1).");
  }
  lines.push("!! Set SMTP_URL=smtp://user:password@host:587 (or smtps://…) to send real e-mail.", bar);
  return lines.join("\n");
}

/** The newest outbox messages first. */
export async function readOutbox(limit = 50): Promise<OutboxEntry[]> {
  let files: string[];
  try {
    files = (await fs.readdir(outboxDir())).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  files.sort().reverse();
  const entries = await Promise.all(
    files.slice(0, limit).map(async (f) => JSON.parse(await fs.readFile(path.join(outboxDir(), f), "utf8")) as OutboxEntry),
  );
  return entries;
}
