import { memo, useCallback, useEffect, useState } from "react";
import { data, Form, Link, redirect, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/payment";
import { requireUser } from "~/.server/http/auth";
import { formatDateTimeWib } from "~/.server/dates";
import { refreshOwnedGatewayPayment } from "~/.server/gateway/midtrans-settle";
import { sandboxPay } from "~/.server/gateway/sandbox-pay";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { getOwnedOrderSummary } from "~/.server/store/orders";
import { getPaymentDetail, markPaid, NOT_MARKABLE, PROOF_REQUIRED } from "~/.server/store/payments";
import { saveUpload } from "~/.server/store/orders";
import { isEmptyFile, processImageUpload } from "~/.server/images";
import { Countdown } from "~/components/countdown";
import { Sheet } from "~/components/sheet";
import { useHydrated } from "~/components/use-hydrated";
import { formatRupiah } from "~/lib/money";
import { formatHms } from "~/lib/payment-flow";
import { splitLastThreeDigits } from "~/lib/payment-pricing";
import type { RouteHandle } from "~/lib/route-handle";
import { KTP_ACCEPT } from "~/lib/photo-files";
import { type Toast, TOAST_HIDE_MS } from "~/lib/toast";
import paymentStylesUrl from "~/styles/payments.css?url";
import { parseId } from "~/lib/ids";

export const handle: RouteHandle = { title: "Pembayaran", back: "/transaction" };
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: paymentStylesUrl }];

const PROOF_SHEET = "bukti";
const PROOF_SENT = "Bukti Pembayaran berhasil dikirim. Kami akan memverifikasinya.";
const SANDBOX_PAID = "Pembayaran (Sandbox) berhasil dikirim.";
const VA_COPIED = "Nomor VA berhasil di salin.";
/** Spec §8's generic copy message: the manual transfer's account number is no VA. */
const copiedToClipboard = (text: string) => `Berhasil Tersalin ke Papan Klip: ${text}`;
const TOTAL_COPIED = "Total Pembayaran berhasil di salin.";
const COMPANY_CODE_COPIED = "Kode Perusahaan berhasil di salin.";
const BILL_KEY_COPIED = "Kode Bayar berhasil di salin.";

function notFound(): never {
  throw data("Not Found", { status: 404 });
}

function orderIdOf(raw: string | undefined): number {
  return parseId(raw) ?? notFound();
}

/** Spec §2 Payment: the owner's order only (anyone else and unknown ids: 404). */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const orderId = orderIdOf(params.id);
  // Back from the gateway's page (the finish URL: Midtrans adds order_id, status_code and
  // transaction_status): its status API is asked now, so the page shows the outcome, not the gateway again.
  const returning = url.searchParams.has("transaction_status") || url.searchParams.has("order_id");
  if (returning) await refreshOwnedGatewayPayment(orderId, user.id);
  const detail = await getPaymentDetail(orderId, user.id);
  if (!detail) notFound();
  if (!detail.method) {
    // No method yet: an approved incentive order chooses one (also an order whose manual transfer
    // found no free code: the notice says why); any other order has nothing to pay here.
    if (detail.notice) flash(context, "toast", { type: "danger", message: detail.notice });
    throw redirect(detail.statusId === 200 ? `/paymentmethod?orderId=${orderId}` : `/transaction-detail/${orderId}`);
  }
  // Spec §2: an order with a gateway page sends the browser there (not on the way back from it).
  if (!returning && detail.redirectUrl && /^https?:\/\//i.test(detail.redirectUrl)) throw redirect(detail.redirectUrl);
  const sheet = url.searchParams.get("sheet") === PROOF_SHEET && detail.canMarkPaid ? PROOF_SHEET : null;
  return {
    payment: {
      ...detail,
      expiredAt: detail.expiredAt?.toISOString() ?? null,
      // Printed by the server in WIB: the deadline needs no JavaScript.
      expiredAtText: detail.expiredAt ? formatDateTimeWib(detail.expiredAt) : null,
    },
    now: new Date().toISOString(),
    sheet,
  };
}

/** 'Saya sudah bayar' with the proof (→ 302) and 'Bayar (Sandbox)' (the signed webhook over HTTP). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const user = requireUser(context);
  const orderId = orderIdOf(params.id);
  const here = `/payment/${orderId}`;
  if (!(await getOwnedOrderSummary(orderId, user.id))) notFound();
  const form = await readForm(request);
  const intent = form.get("intent");

  if (intent === "mark-paid") {
    const detail = await getPaymentDetail(orderId, user.id);
    if (!detail) notFound();
    if (!detail.canMarkPaid) {
      // A stale page or a second tab: the proof was sent already, or the payment ran out.
      flash(context, "toast", { type: detail.marker ? "success" : "danger", message: detail.marker ? PROOF_SENT : NOT_MARKABLE });
      throw redirect(here);
    }
    const picked = form.get("bukti");
    if (isEmptyFile(picked)) return data({ proofError: PROOF_REQUIRED }, { status: 400 });
    const processed = await processImageUpload(picked as File);
    if (!processed.ok) return data({ proofError: processed.message }, { status: 400 });
    const proofId = await saveUpload(user.id, "transfer-proof", processed.file);
    const marked = await markPaid(orderId, user.id, proofId);
    if (!marked.ok && marked.notFound) notFound();
    flash(context, "toast", marked.ok ? { type: "success", message: PROOF_SENT } : { type: "danger", message: marked.message });
    throw redirect(here);
  }

  if (intent === "sandbox-pay") {
    const paid = await sandboxPay(orderId, user.id);
    const accepted = paid.ok && paid.status === 200;
    flash(
      context,
      "toast",
      accepted
        ? { type: "success", message: SANDBOX_PAID }
        : { type: "danger", message: paid.ok ? `Pembayaran (Sandbox) ditolak (HTTP ${paid.status}).` : paid.message },
    );
    throw redirect(here);
  }

  return data({ proofError: null as string | null }, { status: 400 });
}

type PaymentData = Route.ComponentProps["loaderData"]["payment"];

export default function PaymentScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { payment } = loaderData;
  if (payment.expired) return <PaymentExpired />;
  if (payment.paid) return <PaymentDone payment={payment} />;
  if (payment.openError) return <PaymentUnavailable payment={payment} />;
  return <PaymentOpen {...loaderData} proofError={actionData?.proofError ?? null} />;
}

/** Spec §8 expired payment. */
export function PaymentExpired() {
  return (
    <section className="center-panel pay-expired" data-testid="payment-expired">
      <h2 className="pay-expired-title">EXPIRED!</h2>
      <p>Mohon maaf, pembayaran Anda telah kadaluarsa. Silakan melakukan transaksi ulang.</p>
      <Link to="/home" className="btn btn-primary btn-block">
        Kembali ke Beranda
      </Link>
    </section>
  );
}

/** The gateway failed to open the payment: the order stays payable and a new visit tries again. */
function PaymentUnavailable({ payment }: { payment: PaymentData }) {
  return (
    <section className="center-panel" data-testid="payment-unavailable">
      <h2>{payment.statusName}</h2>
      <p role="alert">{payment.openError}</p>
      <a href={`/payment/${payment.orderId}`} className="btn btn-primary btn-block">
        Coba Lagi
      </a>
      <Link to="/transaction" className="btn btn-outline btn-block">
        Cek status pembayaran
      </Link>
    </section>
  );
}

function PaymentDone({ payment }: { payment: PaymentData }) {
  return (
    <section className="center-panel" data-testid="payment-paid">
      <h2>{payment.statusName}</h2>
      <p>
        Pembayaran pesanan <strong>{payment.invoiceId}</strong> sebesar <strong>{formatRupiah(payment.totalAmount)}</strong> telah kami
        terima.
      </p>
      <Link to={`/transaction-detail/${payment.orderId}`} className="btn btn-primary btn-block">
        Lihat Detail Transaksi
      </Link>
      <Link to="/transaction" className="btn btn-outline btn-block">
        Cek status pembayaran
      </Link>
    </section>
  );
}

/** Memoised: React Router's own updates right after hydration re-render the route's component, and
 * this page's props (the loader's data) do not change with them (issue 29). */
const PaymentOpen = memo(function PaymentOpen({
  payment,
  now,
  sheet,
  proofError,
}: Route.ComponentProps["loaderData"] & { proofError: string | null }) {
  const here = `/payment/${payment.orderId}`;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [toast, setToast] = useState<Toast | null>(null);
  const closeToast = useCallback(() => setToast(null), []);
  const [proofOpen, setProofOpen] = useState(false);
  // At zero the server is asked again: it expires the payment and the page shows 'EXPIRED!'.
  const onExpired = useCallback(() => void revalidator.revalidate(), [revalidator]);
  const method = payment.method!;
  const manual = payment.manualInfoDetail;
  const awaitingPayment = payment.statusId === 200;
  const busy = navigation.state === "submitting";
  const showProof = proofError !== null || sheet === PROOF_SHEET || proofOpen;

  return (
    <div className="pay-screen pay-page" data-testid="payment-page">
      {awaitingPayment && payment.expiredAt ? (
        <section className="card pay-deadline">
          <p>Selesaikan pembayaran sebelum</p>
          <p className="pay-deadline-time" data-testid="payment-deadline">
            {payment.expiredAtText}
          </p>
          <p className="pay-countdown" data-testid="payment-countdown">
            <span className="sr-only">Sisa waktu </span>
            <Countdown until={payment.expiredAt} renderedAt={now} format={formatHms} onDone={onExpired} />
          </p>
        </section>
      ) : (
        <section className="card pay-state" data-testid="payment-status">
          <p className="muted small">Status</p>
          <p className="strong">{payment.statusName}</p>
          {payment.statusId === 301 ? (
            <p className="muted small">Pengajuan pembayaran Anda sedang menunggu persetujuan. Kami akan mengabari Anda melalui email.</p>
          ) : null}
          {payment.statusId === 302 ? <p className="muted small">Bukti transfer Anda sudah kami terima dan sedang diverifikasi.</p> : null}
        </section>
      )}

      {awaitingPayment && payment.proofRejected ? (
        <section className="warning-banner" role="alert" data-testid="proof-rejected">
          <p className="strong">Bukti pembayaran Anda ditolak.</p>
          {payment.proofRejected.reason ? <p>Alasan: {payment.proofRejected.reason}</p> : null}
          <p>Silakan kirim bukti pembayaran yang benar melalui tombol 'Saya sudah bayar'.</p>
        </section>
      ) : null}

      <section className="card pay-details">
        <div className="pay-method" data-testid="payment-method">
          {/* A manual transfer shows its bank's logo once, with the account below (spec §2). */}
          {manual ? null : <img src={method.imageUrl} alt="" width={60} height={25} />}
          <strong>{method.name}</strong>
          {payment.tenor ? <span className="muted small">· Tenor {payment.tenor} bulan</span> : null}
        </div>

        {manual ? (
          <div className="pay-bank" data-testid="manual-bank">
            {manual.bankImageUrl ? <img src={manual.bankImageUrl} alt={manual.bankName} width={60} height={25} /> : null}
            <dl className="price-lines">
              <div>
                <dt>Nama Pemilik Rekening</dt>
                <dd>{manual.bankAccountName}</dd>
              </div>
              <div>
                <dt>Bank</dt>
                <dd>{manual.bankName}</dd>
              </div>
            </dl>
          </div>
        ) : null}

        {payment.billerCode ? (
          // Mandiri bill payment (Midtrans echannel): a company code and a bill key instead of one VA number.
          <CopyField
            id="biller-code"
            label="Kode Perusahaan"
            value={payment.billerCode}
            copyText={payment.billerCode}
            copied={COMPANY_CODE_COPIED}
            onToast={setToast}
          />
        ) : null}
        {payment.vaNo && payment.billerCode ? (
          <CopyField
            id="bill-key"
            label="Kode Bayar"
            value={payment.vaNo}
            copyText={payment.vaNo}
            copied={BILL_KEY_COPIED}
            onToast={setToast}
          />
        ) : payment.vaNo ? (
          <CopyField
            id="va-number"
            label={manual ? "Nomor Rekening" : "Nomor Virtual Account"}
            value={payment.vaNo}
            copyText={payment.vaNo}
            copied={manual ? copiedToClipboard(payment.vaNo) : VA_COPIED}
            onToast={setToast}
          />
        ) : null}
        <CopyField
          id="total-amount"
          label="Total Pembayaran"
          value={formatRupiah(payment.totalAmount)}
          copyText={String(payment.totalAmount)}
          copied={TOTAL_COPIED}
          onToast={setToast}
        />
        {manual && awaitingPayment ? <ExactAmount total={payment.totalAmount} /> : null}
      </section>

      {payment.howTo.length ? (
        <section className="card how-to" aria-labelledby="how-to-heading">
          <h2 id="how-to-heading">Cara Pembayaran</h2>
          {payment.howTo.map((howTo) => (
            <details key={howTo.type} className="how-to-item">
              <summary>{howTo.type}</summary>
              {/* Sanitised on the server (allow-list: lists and emphasis, no attributes). */}
              <div className="how-to-content" dangerouslySetInnerHTML={{ __html: howTo.content }} />
            </details>
          ))}
        </section>
      ) : null}

      <div className="pay-actions">
        {payment.redirectUrl && /^https?:\/\//i.test(payment.redirectUrl) ? (
          // Back from the gateway's page without finishing: the same page again (spec §2).
          <a href={payment.redirectUrl} className="btn btn-primary btn-block" data-testid="continue-payment">
            Lanjutkan Pembayaran
          </a>
        ) : null}
        {payment.canSandboxPay ? (
          <Form method="post" action={here} replace>
            <input type="hidden" name="intent" value="sandbox-pay" />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              Bayar (Sandbox)
            </button>
          </Form>
        ) : null}
        {payment.canMarkPaid ? (
          <Link
            to={`${here}?sheet=${PROOF_SHEET}`}
            className="btn btn-primary btn-block"
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              setProofOpen(true);
            }}
          >
            Saya sudah bayar
          </Link>
        ) : null}
        <Link to="/transaction" className="btn btn-outline btn-block">
          Cek status pembayaran
        </Link>
      </div>

      {showProof && payment.canMarkPaid ? (
        <ProofSheet closeHref={here} error={proofError} busy={busy} onClose={proofOpen ? () => setProofOpen(false) : undefined} />
      ) : null}
      <CopyToast toast={toast} onClose={closeToast} />
    </div>
  );
});

/** The copy buttons' toast (spec §8), at the bottom like the app's other toasts, hidden after 30 s. */
function CopyToast({ toast, onClose }: { toast: Toast | null; onClose: () => void }) {
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(onClose, TOAST_HIDE_MS);
    return () => clearTimeout(timer);
  }, [toast, onClose]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toast ? (
        <div className={`toast toast-${toast.type}`} data-testid="copy-toast">
          <span>{toast.message}</span>
          <button type="button" className="toast-close" aria-label="Tutup" onClick={onClose}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Manual transfer: the unique code is the last 3 digits, highlighted, and must be transferred exactly. */
function ExactAmount({ total }: { total: number }) {
  const { head, tail } = splitLastThreeDigits(total);
  return (
    <div className="pay-exact" data-testid="exact-amount">
      <p>
        Transfer tepat{" "}
        <strong className="pay-exact-amount">
          {head}
          <mark>{tail}</mark>
        </strong>
      </p>
      <p className="warning-banner" role="note">
        Pastikan jumlah transfer sama persis hingga 3 digit terakhir agar pembayaran Anda dapat diverifikasi.
      </p>
    </div>
  );
}

/** A read-only, selectable field (works without JavaScript) with a copy button once JavaScript runs. */
function CopyField({
  id,
  label,
  value,
  copyText,
  copied,
  onToast,
}: {
  id: string;
  label: string;
  value: string;
  copyText: string;
  copied: string;
  onToast: (toast: Toast) => void;
}) {
  // Here, not in the page: only the fields draw again when the scripts start.
  const hydrated = useHydrated();
  const copy = async () => {
    try {
      await copyToClipboard(copyText);
      onToast({ type: "success", message: copied });
    } catch (error) {
      onToast({ type: "danger", message: `Gagal menyalin: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field-row">
        <input id={id} value={value} readOnly onFocus={(event) => event.currentTarget.select()} />
        {hydrated ? (
          <button type="button" className="btn btn-outline btn-small" onClick={copy} aria-label={`Salin ${label}`}>
            Salin
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The Clipboard API where the page may use it (HTTPS, localhost), else the older copy command. */
async function copyToClipboard(text: string) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("browser menolak menyalin");
}

/** 'Saya sudah bayar': the proof upload, a sheet rendered by the server without JavaScript. */
function ProofSheet({ closeHref, error, busy, onClose }: { closeHref: string; error: string | null; busy: boolean; onClose?: () => void }) {
  return (
    <Sheet title="Upload Bukti Pembayaran" closeHref={closeHref} onClose={onClose} height="auto">
      <Form method="post" action={closeHref} encType="multipart/form-data" className="confirm-form" data-testid="proof-sheet" replace>
        <input type="hidden" name="intent" value="mark-paid" />
        <div className="field">
          <label htmlFor="bukti">Bukti Pembayaran</label>
          <input
            id="bukti"
            name="bukti"
            type="file"
            accept={KTP_ACCEPT}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "bukti-error" : "bukti-hint"}
          />
          <p className="field-hint" id="bukti-hint">
            Foto atau tangkapan layar bukti transfer, format .jpg, .jpeg atau .png, maksimal 2 MB.
          </p>
          {error ? (
            <p className="field-error" id="bukti-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          Kirim Bukti Pembayaran
        </button>
      </Form>
    </Sheet>
  );
}
