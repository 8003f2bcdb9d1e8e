import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { queryRows } from "../../db/query-rows";
import { operatorAudit, orderEvents, orders, uploads } from "../../db/schema";
import { readSetting, writeSetting } from "../../db/settings";
import { log } from "../../log";
import { FINAL_STATUSES, ORDER_STATUS } from "~/lib/order-status";

// Kept only as long as needed (issue 35, decision 0056): a KTP photo serves the incentive decision.
// Once its order is closed (Selesai, Dibatalkan, Kedaluwarsa / Ditolak) and the set number of days
// (an admin's setting, 90 by default) has passed since the decision, a job deletes its bytes; the
// row stays (deleted_at), so the order shows 'Foto KTP telah dihapus sesuai kebijakan retensi'.
// A KTP photo no order and no checkout draft uses is deleted the same number of days after upload.

export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;
const BATCH = 200;

export async function getKtpRetentionDays(): Promise<number> {
  return readSetting(await getDb(), "ktp-retention-days");
}

/** 'Simpan Retensi' in /ops/settings (admins): a whole number of days, audited like every setting. */
export async function saveKtpRetentionDays(
  operatorId: number,
  raw: string,
): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
  const text = raw.trim();
  const days = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(days >= RETENTION_MIN_DAYS && days <= RETENTION_MAX_DAYS))
    return { ok: false, errors: { retentionDays: `Masa simpan harus berupa angka ${RETENTION_MIN_DAYS}–${RETENTION_MAX_DAYS} hari.` } };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await writeSetting(tx, "ktp-retention-days", days, `operator:${operatorId}`);
    // The audit row people's recordAudit writes for every setting ('settings'), written here: the
    // privacy domain imports no other domain (people reaches orders, which reaches privacy).
    await tx.insert(operatorAudit).values({ operatorId, action: "settings", detail: `retensi foto KTP: ${days} hari` });
  });
  return { ok: true };
}

/**
 * Deletes the bytes of every KTP photo past its retention at `now`; returns how many. Safe in every
 * instance at once: each update is conditional on the photo not being deleted yet.
 */
export async function deleteExpiredKtpPhotos(now = new Date()): Promise<number> {
  const db = await getDb();
  const days = await readSetting(db, "ktp-retention-days");
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`
        update ${uploads} set bytes = ''::bytea, key_id = null, deleted_at = ${now.toISOString()}::timestamptz
        where ${uploads.id} in (
          select u.id from ${uploads} u
          where u.purpose = 'ktp' and u.deleted_at is null
            -- No open order and no checkout draft still needs it.
            and not exists (select 1 from ${orders} o where o.ktp_upload_id = u.id and o.status_id not in (${sql.join(
              FINAL_STATUSES.map((s) => sql`${s}`),
              sql`, `,
            )}))
            and not exists (select 1 from checkout_drafts d where d.ktp_upload_id = u.id)
            and (
              -- The decision (the order leaving 'Menunggu Verifikasi Insentif'), else the close.
              exists (
                select 1 from ${orders} o where o.ktp_upload_id = u.id
                  and coalesce(
                    (select min(e.created_at) from ${orderEvents} e where e.order_id = o.id and e.from_status = ${ORDER_STATUS.INCENTIVE_REVIEW}),
                    o.status_changed_at
                  ) < ${cutoff}::timestamptz
              )
              or (not exists (select 1 from ${orders} o where o.ktp_upload_id = u.id) and u.created_at < ${cutoff}::timestamptz)
            )
          limit ${BATCH}
        ) and ${uploads.deletedAt} is null
        returning ${uploads.id} as id`,
    );
    deleted += rows.length;
    if (rows.length < BATCH) break;
  }
  if (deleted) log.info({ deleted, days }, "KTP photos past their retention deleted");
  return deleted;
}
