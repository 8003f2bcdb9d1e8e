import { and, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { rosterLinkRequests } from "../../db/schema";
import { env } from "../../env";
import { defineMail, enqueueMessage, renderEmail } from "../messages";
import { recordAudit } from "./operators";
import { linkRosterEntry, NOT_ACTIVE_EMPLOYEE } from "./roster";
import { hashToken, randomToken } from "./sessions";

// Requests to link an account to a roster entry (issue 45 item 11, decision 0069). Knowing an
// employee's NIP and name is not proof of being them: a link needs something a stranger does not
// have. Where the roster carries the employee's work e-mail ('email_kantor') and the account's name
// is the roster's, a link is sent there and opening it links ('email'); otherwise an operator of the
// 'pegawai' role decides from a queue ('petugas'). A name that is not the roster's never goes to
// the work e-mail. Many accounts may ask for one entry (the employee is never locked out by a
// stranger who asked first); the entry's one account is decided by linkRosterEntry's conditional
// update. Meanwhile the account is not on the roster: no employee price, no new checkout.

export type LinkRoute = "email" | "petugas";
const OPEN_STATES = ["email", "petugas"] as const;
const isOpen = inArray(rosterLinkRequests.state, [...OPEN_STATES]);

/** What the buyer is told when their request is made and while it waits, per route. */
export const LINK_REQUEST_MESSAGES: Record<LinkRoute, string> = {
  email:
    "Kami telah mengirim tautan konfirmasi ke email kantor Anda. Buka tautan itu untuk menghubungkan akun ini dengan data pegawai; sampai saat itu harga dan promo pegawai belum berlaku.",
  petugas: "Permintaan Anda menunggu konfirmasi petugas kepegawaian. Setelah dikonfirmasi, harga dan promo pegawai berlaku untuk akun ini.",
};

/** Why a new checkout is refused to an account whose request waits (instead of 'tidak lagi terdaftar'). */
export const LINK_REQUEST_PENDING =
  "Akun Anda belum terhubung dengan data pegawai: permintaan Anda menunggu konfirmasi (lihat Konfirmasi Data Pegawai). Setelah itu Anda dapat berbelanja.";

/** The message for an account the roster does not let start a checkout: its request waits, or it is not an active employee. */
export async function notEmployeeMessage(userId: number, db?: Executor): Promise<string> {
  const [open] = await (db ?? (await getDb()))
    .select({ id: rosterLinkRequests.id })
    .from(rosterLinkRequests)
    .where(and(eq(rosterLinkRequests.userId, userId), isOpen));
  return open ? LINK_REQUEST_PENDING : NOT_ACTIVE_EMPLOYEE;
}

/** How long the work e-mail's link is valid. */
const LINK_HOURS = 72;

/** Names compared as people write them: case, spaces and punctuation aside. */
export const nameKey = (value: SQL) => sql`regexp_replace(lower(${value}), '[^a-z0-9]', '', 'g')`;

/**
 * Which way a link to the entry is confirmed for an account named `fullname`: by the work e-mail
 * when the roster has one and the name is the roster's, else by an operator.
 */
export async function linkRouteFor(db: Executor, entryId: number, fullname: string): Promise<LinkRoute> {
  const [row] = await queryRows<{ route: LinkRoute }>(
    db,
    sql`select case when r.work_email is not null and ${nameKey(sql`r.name`)} = ${nameKey(sql`${fullname}`)}
                 then 'email' else 'petugas' end as route
          from roster_entries r where r.id = ${entryId}`,
  );
  return row?.route ?? "petugas";
}

/**
 * Opens the account's request for the entry, in the caller's transaction, and queues the work
 * e-mail for the 'email' route. An account that has an open request keeps it (nothing new).
 */
export async function openLinkRequest(tx: Executor, userId: number, entryId: number, route: LinkRoute): Promise<void> {
  const [opened] = await queryRows<{ id: number }>(
    tx,
    sql`insert into roster_link_requests (entry_id, user_id, state) values (${entryId}, ${userId}, ${route})
        on conflict (user_id) where state in ('email', 'petugas') do nothing returning id`,
  );
  if (opened && route === "email") await enqueueMessage(tx, "mail", { kind: "roster-link", requestId: opened.id });
}

// The link is issued when the e-mail is sent (no secret waits in the job table); a request decided
// meanwhile gets none.
defineMail("roster-link", async (data) => {
  const db = await getDb();
  const code = randomToken();
  const [request] = await queryRows<{ to: string; name: string; nip: string; company: string; account: string }>(
    db,
    sql`update roster_link_requests q set token_hash = ${hashToken(code)},
          token_expires_at = now() + make_interval(hours => ${LINK_HOURS}), updated_at = now()
          from roster_entries r, companies c, users u
         where q.id = ${Number(data.requestId)} and q.state = 'email' and r.id = q.entry_id and c.id = r.company_id and u.id = q.user_id
           and r.work_email is not null
        returning r.work_email as "to", r.name, r.nip, c.name as company, u.email as account`,
  );
  if (!request) return null;
  return renderEmail({
    to: request.to,
    subject: "Konfirmasi Data Pegawai di Toko Pegawai PLN",
    greeting: `Halo ${request.name},`,
    lines: [
      `Akun Toko Pegawai PLN dengan email ${request.account} meminta dihubungkan dengan data pegawai Anda (NIP ${request.nip}, ${request.company}).`,
      "Jika itu akun Anda, buka tautan di bawah lalu pilih 'Ya, Hubungkan'. Akun yang terhubung mendapat harga dan promo pegawai.",
    ],
    button: { label: "Hubungkan Akun", link: `${env().appUrl}/konfirmasi-pegawai/email?kode=${encodeURIComponent(code)}` },
    footer: `Tautan ini berlaku ${LINK_HOURS} jam. Jika itu bukan akun Anda, abaikan e-mail ini: data pegawai Anda tidak akan terhubung.`,
  });
});

export type OpenLinkRequest = { route: LinkRoute; nip: string; companyName: string };

/** The account's open request, for /konfirmasi-pegawai; null when it has none. */
export async function openLinkRequestOf(userId: number): Promise<OpenLinkRequest | null> {
  const [row] = await queryRows<OpenLinkRequest>(
    await getDb(),
    sql`select q.state as route, r.nip, c.name as "companyName"
          from roster_link_requests q join roster_entries r on r.id = q.entry_id join companies c on c.id = r.company_id
         where q.user_id = ${userId} and q.state in ('email', 'petugas')`,
  );
  return row ?? null;
}

export type EmailLinkRequest = { accountEmail: string; nip: string; companyName: string };

const validCode = (code: string) => typeof code === "string" && code.length > 0 && code.length <= 200;

/** The request a work e-mail's link stands for, while it is open and the link valid: what the page asks about. */
export async function linkRequestByCode(code: string): Promise<EmailLinkRequest | null> {
  if (!validCode(code)) return null;
  const [row] = await queryRows<EmailLinkRequest>(
    await getDb(),
    sql`select u.email as "accountEmail", r.nip, c.name as "companyName"
          from roster_link_requests q join roster_entries r on r.id = q.entry_id
          join companies c on c.id = r.company_id join users u on u.id = q.user_id
         where q.token_hash = ${hashToken(code)} and q.state = 'email' and q.token_expires_at > now()`,
  );
  return row ?? null;
}

export const LINK_CODE_INVALID = "Tautan konfirmasi tidak valid atau sudah kedaluwarsa.";
export const ENTRY_HELD = "Data pegawai ini sudah terhubung dengan akun lain. Hubungi petugas kepegawaian.";
export const ENTRY_HELD_FOR_OPERATOR = "Data pegawai ini sudah terhubung dengan akun lain. Putuskan tautan itu dulu bila keliru.";

/** Thrown inside a transaction to roll it back when the entry is held by another account. */
class EntryHeld extends Error {}

/**
 * 'Ya, Hubungkan' behind the work e-mail's link: the request is linked ('terhubung'), once. The
 * entry held by another account meanwhile: nothing changes (an operator releases a wrong link).
 */
export async function confirmLinkByCode(code: string): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!validCode(code)) return { ok: false, message: LINK_CODE_INVALID };
  const db = await getDb();
  return db
    .transaction(async (tx) => {
      const [request] = await tx
        .update(rosterLinkRequests)
        .set({ state: "terhubung", tokenHash: null, updatedAt: new Date() })
        .where(
          and(
            eq(rosterLinkRequests.tokenHash, hashToken(code)),
            eq(rosterLinkRequests.state, "email"),
            gt(rosterLinkRequests.tokenExpiresAt, new Date()),
          ),
        )
        .returning({ entryId: rosterLinkRequests.entryId, userId: rosterLinkRequests.userId });
      if (!request) return { ok: false as const, message: LINK_CODE_INVALID };
      if (!(await linkRosterEntry(tx, request.entryId, request.userId))) throw new EntryHeld();
      return { ok: true as const };
    })
    .catch((error: unknown) => {
      if (error instanceof EntryHeld) return { ok: false as const, message: ENTRY_HELD };
      throw error;
    });
}

/** Marks the account's request for the entry with `state` ('terhubung' after a link made another way, 'dilepas' after a release). */
export async function settleLinkRequests(
  tx: Executor,
  entryId: number,
  userId: number,
  from: readonly ("email" | "petugas" | "terhubung")[],
  state: "terhubung" | "dilepas",
  operatorId: number | null,
): Promise<void> {
  await tx
    .update(rosterLinkRequests)
    .set({ state, tokenHash: null, decidedBy: operatorId, updatedAt: new Date() })
    .where(
      and(eq(rosterLinkRequests.entryId, entryId), eq(rosterLinkRequests.userId, userId), inArray(rosterLinkRequests.state, [...from])),
    );
}

// ————————————————————————————————————————————— the operators' queue

export const LINK_QUEUE_PAGE_SIZE = 50;

export type LinkQueueRow = {
  id: number;
  route: LinkRoute;
  createdAt: Date;
  entryId: number;
  nip: string;
  rosterName: string;
  companyName: string;
  accountEmail: string;
  accountName: string;
  verified: boolean;
  nameMatches: boolean;
  /** The e-mail of the account the entry is linked to now (another account), or null. */
  heldBy: string | null;
};

/** Open requests, oldest first: what the 'pegawai' operator decides ('Setujui', 'Tolak'). */
export async function listLinkRequests(page: number): Promise<{ rows: LinkQueueRow[]; total: number }> {
  const db = await getDb();
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(rosterLinkRequests)
    .where(isOpen);
  const rows = await queryRows<LinkQueueRow>(
    db,
    sql`select q.id, q.state as route, q.created_at as "createdAt", r.id as "entryId", r.nip, r.name as "rosterName",
               c.name as "companyName", u.email as "accountEmail", u.fullname as "accountName",
               u.verified_at is not null as verified,
               ${nameKey(sql`r.name`)} = ${nameKey(sql`u.fullname`)} as "nameMatches",
               h.email as "heldBy"
          from roster_link_requests q join roster_entries r on r.id = q.entry_id join companies c on c.id = r.company_id
          join users u on u.id = q.user_id left join users h on h.id = r.user_id
         where q.state in ('email', 'petugas')
         order by q.created_at, q.id
         limit ${LINK_QUEUE_PAGE_SIZE} offset ${(Math.max(1, page) - 1) * LINK_QUEUE_PAGE_SIZE}`,
  );
  return { rows: rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) })), total };
}

export const LINK_REQUEST_GONE = "Permintaan ini sudah diputuskan atau tidak ada. Muat ulang halaman.";
export const ACCOUNT_HOLDS_ENTRY = "Akun ini sudah terhubung dengan data pegawai lain.";

/**
 * 'Setujui' links the request's account to the entry; 'Tolak' closes the request. Refused while the
 * entry is linked to another account ('Putuskan' first, if that link is wrong). Audited.
 */
export async function decideLinkRequest(
  operatorId: number,
  requestId: number,
  decision: "approve" | "refuse",
): Promise<{ ok: true } | { ok: false; message: string }> {
  const db = await getDb();
  return db
    .transaction(async (tx) => {
      const [request] = await queryRows<{ entryId: number; userId: number; companyId: number; nip: string; holds: boolean }>(
        tx,
        sql`select q.entry_id as "entryId", q.user_id as "userId", r.company_id as "companyId", r.nip,
                   exists (select 1 from roster_entries o where o.user_id = q.user_id) as holds
              from roster_link_requests q join roster_entries r on r.id = q.entry_id
             where q.id = ${requestId} and q.state in ('email', 'petugas') for update of q`,
      );
      if (!request) return { ok: false as const, message: LINK_REQUEST_GONE };
      const where = `perusahaan ${request.companyId}, NIP ${request.nip}: akun ${request.userId}`;
      if (decision === "refuse") {
        await tx
          .update(rosterLinkRequests)
          .set({ state: "ditolak", tokenHash: null, decidedBy: operatorId, updatedAt: new Date() })
          .where(eq(rosterLinkRequests.id, requestId));
        await recordAudit(tx, operatorId, "roster-link-refused", { detail: `${where} (permintaan ${requestId} ditolak)` });
        return { ok: true as const };
      }
      if (request.holds) return { ok: false as const, message: ACCOUNT_HOLDS_ENTRY };
      if (!(await linkRosterEntry(tx, request.entryId, request.userId))) throw new EntryHeld();
      await settleLinkRequests(tx, request.entryId, request.userId, OPEN_STATES, "terhubung", operatorId);
      await recordAudit(tx, operatorId, "roster-link", { detail: `${where} (permintaan ${requestId})` });
      return { ok: true as const };
    })
    .catch((error: unknown) => {
      if (error instanceof EntryHeld) return { ok: false as const, message: ENTRY_HELD_FOR_OPERATOR };
      throw error;
    });
}
