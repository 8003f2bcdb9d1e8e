import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/refunds";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { flash } from "~/.server/http/session";
import { isEmptyFile } from "~/.server/images";
import { formatAge, formatWhen } from "~/.server/store/back-office";
import { processProofUpload, saveUpload } from "~/.server/store/orders";
import { recordAudit } from "~/.server/store/people";
import {
  accountVersionOf,
  confirmRefundFunds,
  failRefund,
  type FinanceResult,
  listRefundsForOps,
  markRefundTransferred,
  recordOverpayment,
  refundCounts,
  refundInvoice,
  refundOwner,
  refundThroughGateway,
} from "~/.server/store/refunds";
import { listPaymentIncidents, resolvePaymentIncident } from "~/.server/store/payments";
import { formatRupiah } from "~/lib/money";
import { PROOF_ACCEPT } from "~/lib/photo-files";
import { fundsLine } from "./refunds-funds.server";
import {
  FAILURE_REASON_MAX,
  FUNDS_NOTE_MAX,
  PAYMENT_INCIDENT_NAMES,
  REFERENCE_MAX,
  REFUND_CAUSE_NAMES,
  REFUND_STATE_NAMES,
  type RefundState,
} from "~/lib/refunds";
import type { RouteHandle } from "~/lib/route-handle";
import { InputField } from "./components";
import { Incidents, OverpaymentForm, type OverpaymentFailure } from "./refunds-parts";

// /ops/refunds 'Pengembalian Dana' (issue 36 item 4, role keuangan or admin): first the incidents the
// gateway reported, still open (issue 43: they sat at the bottom, under a form); then the refunds by
// state with their invoice, amount, age; a transfer refund is marked transferred (the bank's
// reference, an optional proof image) or failed (back to the buyer for new details); a card refund
// goes back through Midtrans's refund API. Last, finance records a manual transfer paid twice or
// above what was asked ('Catat Kelebihan Bayar'). A refund is named by its order's invoice: its own
// id is nobody's number.

const TITLE = "Pengembalian Dana";
export const handle: RouteHandle = { title: `${TITLE} · Back Office` };

const STATES: RefundState[] = ["awaiting-funds", "processing", "awaiting-account", "failed", "refunded", "not-received"];
const isState = (raw: string | null): raw is RefundState => (STATES as (string | null)[]).includes(raw);
/**
 * The tab opened without ?state=: the first open state that holds a refund, finance's own work
 * first ('Sedang Diproses'), then what waits for the buyer: an empty default tab hid the only open
 * refund, 'Gagal Diproses' (issue 43).
 */
const OPEN_STATES: RefundState[] = ["awaiting-funds", "processing", "failed", "awaiting-account"];

export async function loader({ context, url }: Route.LoaderArgs) {
  requireStaff(context, "keuangan");
  const now = new Date();
  const [counts, incidents] = await Promise.all([refundCounts(), listPaymentIncidents({ limit: 50 })]);
  const asked = url.searchParams.get("state");
  const state = isState(asked) ? asked : (OPEN_STATES.find((s) => counts[s].count > 0) ?? "processing");
  const rows = await listRefundsForOps({ state });
  return {
    state,
    tabs: STATES.map((s) => ({ state: s, name: REFUND_STATE_NAMES[s], count: counts[s].count, amount: counts[s].amount })),
    refunds: rows.map((r) => ({
      id: r.id,
      orderId: r.orderId,
      invoiceId: r.invoiceId,
      amount: r.amount,
      method: r.method,
      reason: r.reason,
      cause: REFUND_CAUSE_NAMES[r.cause] ?? r.cause,
      funds: fundsLine(r),
      expectedAmount: r.expectedAmount,
      bankName: r.bankName,
      accountNumber: r.accountNumber,
      accountHolder: r.accountHolder,
      accountVersion: accountVersionOf(r),
      transferReference: r.transferReference,
      failureReason: r.failureReason,
      createdAt: formatWhen(r.createdAt),
      age: formatAge(r.createdAt, now),
      refundedAt: r.refundedAt ? formatWhen(r.refundedAt) : null,
    })),
    incidents: incidents.map((i) => ({
      id: i.id,
      kind: PAYMENT_INCIDENT_NAMES[i.kind].name,
      check: PAYMENT_INCIDENT_NAMES[i.kind].check,
      orderId: i.orderId,
      invoiceId: i.invoiceId,
      amount: i.amount,
      gateway: i.gateway,
      createdAt: formatWhen(i.createdAt),
    })),
  };
}

type ActionData = {
  refundId: number;
  intent: string;
  errors: Partial<Record<"reference" | "reason" | "proof" | "amount" | "note" | "account", string>>;
  values: Record<string, string>;
  message?: string;
};

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context, "keuangan");
  const form = await readForm(request);
  const rawId = String(form.get("refundId") ?? "");
  const intent = String(form.get("intent") ?? "");
  if (intent === "overpayment") {
    const values = {
      invoiceId: String(form.get("invoiceId") ?? "").slice(0, 100),
      amountReceived: String(form.get("amountReceived") ?? "").slice(0, 30),
    };
    const recorded = await recordOverpayment(values, operator.id);
    if (!recorded.ok) return data<OverpaymentFailure>({ overpayment: { errors: recorded.errors, values } }, { status: 400 });
    const invoice = (await refundInvoice(recorded.refundId)) ?? values.invoiceId;
    flash(context, "toast", {
      type: "success",
      message: `Kelebihan bayar dicatat: pengembalian dana untuk ${invoice} sebesar ${formatRupiah(recorded.amount)} dibuat.`,
    });
    throw redirect("/ops/refunds?state=awaiting-account");
  }
  if (intent === "resolve-incident") {
    // Its money is already a refund (recorded with the incident); 'Tandai Selesai' says it was checked.
    const rawIncident = String(form.get("incidentId") ?? "");
    if (!/^[1-9]\d{0,9}$/.test(rawIncident) || Number(rawIncident) > 2_147_483_647) throw data("Not Found", { status: 404 });
    const invoice = String(form.get("invoiceId") ?? "").slice(0, 100);
    const resolved = await resolvePaymentIncident(Number(rawIncident));
    if (resolved) await recordAudit(null, operator.id, "incident-resolved", { detail: `insiden ${rawIncident}` });
    flash(context, "toast", {
      type: resolved ? "success" : "info",
      message: resolved ? `Insiden pembayaran ${invoice} ditandai selesai.` : "Insiden ini sudah ditandai selesai sebelumnya.",
    });
    throw redirect(`/ops/refunds${new URL(request.url).search}`);
  }
  if (!/^[1-9]\d{0,9}$/.test(rawId) || Number(rawId) > 2_147_483_647) throw data("Not Found", { status: 404 });
  const refundId = Number(rawId);
  const values = {
    reference: String(form.get("reference") ?? "").slice(0, 200),
    reason: String(form.get("reason") ?? "").slice(0, 1000),
    amount: String(form.get("amount") ?? "").slice(0, 30),
    note: String(form.get("note") ?? "").slice(0, 1000),
  };
  const actor = { operatorId: operator.id };
  if (intent === "confirm-funds") {
    const confirmed = await confirmRefundFunds(refundId, actor, { amount: values.amount, note: values.note });
    if (!confirmed.ok && confirmed.kind === "not-found") throw data("Not Found", { status: 404 });
    if (!confirmed.ok && confirmed.kind === "invalid")
      return data<ActionData>({ refundId, intent, errors: confirmed.errors, values }, { status: 400 });
    const invoice = await refundInvoice(refundId);
    flash(
      context,
      "toast",
      confirmed.ok
        ? {
            type: "success",
            message:
              confirmed.state === "not-received"
                ? `Pengembalian dana untuk ${invoice} ditutup: dana tidak diterima. Pembeli diberi tahu.`
                : `Dana untuk ${invoice} dikonfirmasi: ${REFUND_STATE_NAMES[confirmed.state]}.`,
          }
        : { type: "danger", message: `Pengembalian dana untuk ${invoice}: ${confirmed.message}` },
    );
    throw redirect(`/ops/refunds${new URL(request.url).search}`);
  }
  let result: FinanceResult;
  if (intent === "transferred") {
    let proofUploadId: string | null = null;
    const proof = form.get("proof");
    if (proof instanceof File && !isEmptyFile(proof)) {
      const processed = await processProofUpload(proof);
      if (!processed.ok) return data<ActionData>({ refundId, intent, errors: { proof: processed.message }, values }, { status: 400 });
      const owner = await refundOwner(refundId);
      if (!owner) throw data("Not Found", { status: 404 });
      // Stored as the buyer's: the order detail links it, and only they (and finance) may open it.
      proofUploadId = await saveUpload(owner, "refund-proof", processed.file);
    }
    // The details the page showed (issue 45 item 6): changed since, the press is refused and the page shows the new ones.
    const shown = form.get("accountVersion");
    const account = { version: typeof shown === "string" ? shown : null };
    result = await markRefundTransferred(refundId, actor, { reference: values.reference, proofUploadId, account });
  } else if (intent === "fail") result = await failRefund(refundId, actor, { reason: values.reason });
  else if (intent === "gateway") result = await refundThroughGateway(refundId, actor);
  else return data<ActionData>({ refundId, intent, errors: {}, values, message: "Aksi tidak dikenal." }, { status: 400 });

  if (!result.ok && result.kind === "not-found") throw data("Not Found", { status: 404 });
  if (!result.ok && result.kind === "invalid")
    return data<ActionData>({ refundId, intent, errors: result.errors, values }, { status: 400 });
  const invoice = await refundInvoice(refundId);
  flash(
    context,
    "toast",
    result.ok
      ? {
          type: "success",
          message: `Pengembalian dana untuk ${invoice} ${result.already ? "sudah dikembalikan sebelumnya." : "tersimpan."}`,
        }
      : { type: "danger", message: `Pengembalian dana untuk ${invoice}: ${result.message}` },
  );
  throw redirect(`/ops/refunds${new URL(request.url).search}`);
}

export default function OpsRefunds({ loaderData, actionData }: Route.ComponentProps) {
  const { state, tabs, refunds, incidents } = loaderData;
  const answer = actionData as ActionData | OverpaymentFailure | undefined;
  const failed = answer && "refundId" in answer ? answer : undefined;
  const overpayment = answer && "overpayment" in answer ? answer.overpayment : undefined;
  const errorsOf = (id: number, intent: string) => (failed?.refundId === id && failed.intent === intent ? failed.errors : {});
  const valueOf = (id: number, intent: string, field: string) =>
    failed?.refundId === id && failed.intent === intent ? (failed.values[field] ?? "") : "";
  return (
    <>
      <p>
        <a href="/ops">‹ Antrean</a>
      </p>
      <h1>{TITLE}</h1>
      {failed?.message ? (
        <p className="ops-alert" role="alert">
          {failed.message}
        </p>
      ) : null}
      <Incidents incidents={incidents} />
      <h2>Daftar Pengembalian Dana</h2>
      <nav className="ops-filters" aria-label="Status pengembalian dana">
        {tabs.map((t) => (
          <a
            key={t.state}
            href={`/ops/refunds?state=${t.state}`}
            aria-current={t.state === state ? "page" : undefined}
            data-testid={`refund-tab-${t.state}`}
          >
            {t.name} ({t.count} · {formatRupiah(t.amount)})
          </a>
        ))}
      </nav>
      <p className="ops-actions">
        <a className="ops-btn ops-btn-secondary" href="/ops/refunds/export?format=xlsx">
          Unduh Excel transfer (Sedang Diproses)
        </a>
        <a className="ops-btn ops-btn-secondary" href="/ops/refunds/export">
          Unduh CSV
        </a>
      </p>
      <p className="ops-muted">
        Untuk transfer massal bank. Di file Excel, Nomor Rekening tersimpan sebagai teks: angka 0 di depannya tidak hilang.
      </p>
      {refunds.length === 0 ? (
        <p className="ops-card">Tidak ada pengembalian dana dengan status ini.</p>
      ) : (
        <div className="ops-table-wrap">
          <table className="ops-table">
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col" className="num">
                  Jumlah
                </th>
                <th scope="col">Sebab</th>
                <th scope="col">Konfirmasi Dana</th>
                <th scope="col">Cara Pengembalian</th>
                <th scope="col">Rekening</th>
                <th scope="col">Dibuat</th>
                {/* Given back: when the money left, not how long it once waited. */}
                <th scope="col">{state === "refunded" ? "Dikembalikan" : "Umur"}</th>
                {state === "processing" || state === "awaiting-funds" ? <th scope="col">Tindakan</th> : null}
              </tr>
            </thead>
            <tbody>
              {refunds.map((r) => (
                <tr key={r.id} data-testid="refund-row" data-refund-id={r.id}>
                  <td>
                    <a href={`/ops/orders/${r.orderId}`}>{r.invoiceId}</a>
                    <br />
                    <span className="ops-muted">{r.reason}</span>
                  </td>
                  <td className="num">{formatRupiah(r.amount)}</td>
                  <td data-testid="refund-cause">{r.cause}</td>
                  <td data-testid="refund-funds">{r.funds}</td>
                  <td>{r.method === "gateway" ? "Kartu kredit (via Midtrans)" : "Transfer bank"}</td>
                  <td>
                    {r.bankName ? (
                      <>
                        {r.bankName} {r.accountNumber}
                        <br />
                        a.n. {r.accountHolder}
                      </>
                    ) : (
                      <span className="ops-muted">-</span>
                    )}
                    {r.failureReason ? <p className="ops-muted">Gagal: {r.failureReason}</p> : null}
                    {r.transferReference ? <p className="ops-muted">Referensi: {r.transferReference}</p> : null}
                  </td>
                  <td>{r.createdAt}</td>
                  <td data-testid={state === "refunded" ? "refund-refunded-at" : undefined}>
                    {state === "refunded" ? (r.refundedAt ?? "-") : r.age}
                  </td>
                  {state === "awaiting-funds" ? (
                    <td>
                      <Form method="post" className="ops-form">
                        <input type="hidden" name="refundId" value={r.id} />
                        <input type="hidden" name="intent" value="confirm-funds" />
                        <InputField
                          id={`amount-${r.id}`}
                          name="amount"
                          label="Jumlah dana yang masuk (Rp, sesuai mutasi rekening)"
                          inputMode="numeric"
                          maxLength={15}
                          hint="Isi 0 jika dana tidak ada di mutasi rekening: pengembalian ditutup sebagai Dana tidak diterima."
                          defaultValue={valueOf(r.id, "confirm-funds", "amount")}
                          error={errorsOf(r.id, "confirm-funds").amount}
                        />
                        <InputField
                          id={`note-${r.id}`}
                          name="note"
                          label="Catatan (wajib jika dana tidak masuk)"
                          maxLength={FUNDS_NOTE_MAX}
                          defaultValue={valueOf(r.id, "confirm-funds", "note")}
                          error={errorsOf(r.id, "confirm-funds").note}
                        />
                        <button type="submit" className="ops-btn">
                          Konfirmasi Dana
                        </button>
                      </Form>
                    </td>
                  ) : null}
                  {state === "processing" ? (
                    <td>
                      {r.method === "transfer" ? (
                        <div className="ops-decisions">
                          <Form method="post" encType="multipart/form-data" className="ops-form">
                            <input type="hidden" name="refundId" value={r.id} />
                            <input type="hidden" name="intent" value="transferred" />
                            <input type="hidden" name="accountVersion" value={r.accountVersion} />
                            <InputField
                              id={`reference-${r.id}`}
                              name="reference"
                              label="Nomor Referensi Transfer"
                              maxLength={REFERENCE_MAX}
                              defaultValue={valueOf(r.id, "transferred", "reference")}
                              error={errorsOf(r.id, "transferred").reference}
                            />
                            <InputField
                              id={`proof-${r.id}`}
                              name="proof"
                              label="Bukti Transfer (opsional)"
                              type="file"
                              accept={PROOF_ACCEPT}
                              error={errorsOf(r.id, "transferred").proof}
                            />
                            <button type="submit" className="ops-btn">
                              Tandai Sudah Ditransfer
                            </button>
                          </Form>
                          <Form method="post" className="ops-form">
                            <input type="hidden" name="refundId" value={r.id} />
                            <input type="hidden" name="intent" value="fail" />
                            <InputField
                              id={`reason-${r.id}`}
                              name="reason"
                              label="Alasan gagal"
                              maxLength={FAILURE_REASON_MAX}
                              defaultValue={valueOf(r.id, "fail", "reason")}
                              error={errorsOf(r.id, "fail").reason}
                            />
                            <button type="submit" className="ops-btn ops-btn-danger">
                              Gagal
                            </button>
                          </Form>
                        </div>
                      ) : (
                        <Form method="post">
                          <input type="hidden" name="refundId" value={r.id} />
                          <button type="submit" name="intent" value="gateway" className="ops-btn">
                            Kembalikan via Midtrans
                          </button>
                        </Form>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <OverpaymentForm failed={overpayment} />
    </>
  );
}
