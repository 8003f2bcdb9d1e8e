import { data, redirect } from "react-router";
import type { Route } from "./+types/order";
import { orderIdOf } from "~/.server/http/route-params";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { formatWhen } from "~/.server/store/back-office";
import { flash } from "~/.server/http/session";
import { getOrderForOps } from "~/.server/store/back-office";
import { applyOpsDecision, paidAtGateway } from "~/.server/store/back-office";
import { uploadUrl } from "~/.server/store/orders";
import { formatRupiah } from "~/lib/money";
import { COURIERS, decisionsFrom, isOpsDecision, OPS_TRANSITIONS, OTHER_COURIER } from "~/lib/ops-decisions";
import { KTP_DELETED } from "~/lib/privacy";
import { ORDER_STATUS } from "~/lib/order-status";
import { clientAddress } from "~/.server/http/request";
import { openOrderNik } from "~/.server/store/privacy";
import type { RouteHandle } from "~/lib/route-handle";
import { PAYMENT_KINDS, type PaymentMethodType } from "~/lib/payment-kinds";
import { EmailText } from "~/components/email-text";
import { StatusBadge } from "./components";
import { DecisionForms, type DecisionFailure } from "./order-decisions";

// /ops/orders/:id: everything an operator needs to decide on one order (buyer, NIK, KTP photo,
// transfer proof, payment with its unique code, other orders with the same NIK, the timeline) and
// the decisions its status allows. Each decision is one POST with its `intent`, through the same
// store function as the CLI; a decision that lost a race is answered with the order's new status.

export const handle: RouteHandle = { title: "Detail Pesanan · Back Office" };

/** `?data=lengkap`: the operator asks to see the full NIK and the KTP photo of a decided order. */
export const OPEN_PERSONAL_DATA = "lengkap";

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  const operator = requireStaff(context);
  const order = await getOrderForOps(orderIdOf(params.id));
  if (!order) throw data("Not Found", { status: 404 });
  // Issue 35: the full NIK and the KTP photo are the incentive review's (an incentive order waiting
  // for its decision); elsewhere masked until the operator asks. Either way, each opening is recorded.
  const inReview = order.insentif && order.statusId === ORDER_STATUS.INCENTIVE_REVIEW;
  const opened = inReview || url.searchParams.get("data") === OPEN_PERSONAL_DATA;
  const nik = opened ? await openOrderNik({ operatorId: operator.id, clientAddress: clientAddress(request) }, order.id) : null;
  return {
    personalData: {
      inReview,
      opened,
      // The photo is served by /ops/orders/:id/ktp, which records its own opening.
      ktpUrl: opened && order.ktp.state === "present" ? `/ops/orders/${order.id}/ktp` : null,
      ktp: order.ktp.state,
    },
    order: {
      ...order,
      buyer: { ...order.buyer, nik: nik ?? order.buyer.nik },
      createdAt: formatWhen(order.createdAt),
      statusChangedAt: formatWhen(order.statusChangedAt),
      payment: order.payment && {
        ...order.payment,
        expiresAt: order.payment.expiresAt ? formatWhen(order.payment.expiresAt) : null,
        markedPaidAt: order.payment.markedPaidAt ? formatWhen(order.payment.markedPaidAt) : null,
        paidAt: order.payment.paidAt ? formatWhen(order.payment.paidAt) : null,
      },
      sameNik: order.sameNik.map((o) => ({ ...o, createdAt: formatWhen(o.createdAt) })),
      timeline: order.timeline.map((e) => ({ ...e, at: formatWhen(e.at), ...timelineNote(e.note) })),
      transferProofUrl: order.transferProofUploadId ? uploadUrl(order.transferProofUploadId) : null,
      deliveryPhotoUrls: order.deliveryPhotoUploadIds.map(uploadUrl),
    },
    decisions: decisionsFrom(order.statusId, { paidAtGateway: await paidAtGateway(order.id) }),
    couriers: [...COURIERS, OTHER_COURIER],
  };
}

type ActionData = DecisionFailure;

export async function action({ context, params, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const orderId = orderIdOf(params.id);
  const form = await readForm(request);
  const intent = form.get("intent");
  const values = {
    reason: String(form.get("reason") ?? "").slice(0, 2000),
    courier: String(form.get("courier") ?? "").slice(0, 100),
    courierOther: String(form.get("courierOther") ?? "").slice(0, 100),
    trackingNumber: String(form.get("trackingNumber") ?? "").slice(0, 200),
    moneyReceived: form.get("moneyReceived") === "yes" ? "yes" : form.get("moneyReceived") === "no" ? "no" : "",
  };
  if (!isOpsDecision(intent))
    return data<ActionData>({ intent: null, errors: {}, values, conflict: "Aksi tidak dikenal." }, { status: 400 });
  // The area opens to 'pesanan'; a decision may ask for its own role (the decisions' table).
  requireStaff(context, OPS_TRANSITIONS[intent].role);
  const result = await applyOpsDecision(
    orderId,
    intent,
    { operatorId: operator.id },
    { ...values, moneyReceived: values.moneyReceived === "" ? undefined : values.moneyReceived === "yes" },
  );
  if (result.ok) {
    flash(context, "toast", { type: "success", message: OPS_TRANSITIONS[intent].success });
    throw redirect(`/ops/orders/${orderId}`);
  }
  if (result.kind === "not-found") throw data("Not Found", { status: 404 });
  if (result.kind === "invalid")
    // A refusal that is no field's (an instalment paid at Midtrans cannot be approved) is said above the forms.
    return data<ActionData>(
      { intent, errors: result.errors, values, conflict: Object.keys(result.errors).length ? null : result.message },
      { status: 400 },
    );
  // Another operator (or the buyer, or the gateway) was first: nothing changed; the page below is
  // rendered again with the order as it is now.
  const conflict = `Keputusan tidak disimpan: pesanan ini sudah diproses lebih dulu. Status pesanan sekarang: ${result.current.statusName} (${result.current.statusId}).`;
  return data<ActionData>({ intent, errors: {}, values, conflict }, { status: 409 });
}

/**
 * An event's note as the operator reads it: the proof ids the notes carry ('Bukti transfer dikirim
 * (bukti:…)', a confirmation's 'bukti:…') become links named 'Bukti transfer' / 'Foto barang sampai'
 * (issue 38: no internal ids on screen).
 */
function timelineNote(note: string | null): { note: string | null; proofs: { label: string; url: string }[] } {
  if (!note) return { note: null, proofs: [] };
  if (note.startsWith("bukti:"))
    return {
      note: null,
      proofs: note
        .slice("bukti:".length)
        .split(",")
        .filter(Boolean)
        .map((id, i, all) => ({ label: all.length > 1 ? `Foto barang sampai ${i + 1}` : "Foto barang sampai", url: uploadUrl(id) })),
    };
  const ids = [...note.matchAll(/\s*\(bukti:([\w-]+)\)/g)].map((m) => m[1]!);
  return {
    note: note.replace(/\s*\(bukti:[\w-]+\)/g, "").trim() || null,
    proofs: ids.map((id) => ({ label: "Bukti transfer", url: uploadUrl(id) })),
  };
}

function Photo({ url, alt }: { url: string; alt: string }) {
  return (
    <figure>
      <a href={url} target="_blank" rel="noopener">
        <img src={url} alt={alt} width={240} height={152} loading="lazy" />
      </a>
      <figcaption>{alt} (klik untuk ukuran penuh)</figcaption>
    </figure>
  );
}

export default function OpsOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, decisions, couriers, personalData } = loaderData;
  const failed = actionData as ActionData | undefined;
  const p = order.payment;
  return (
    <>
      <p>
        <a href="/ops">‹ Antrean</a>
      </p>
      <h1 data-testid="ops-invoice">{order.invoiceId}</h1>
      <div className="ops-status-line">
        <StatusBadge id={order.statusId} name={order.statusName} />
        <span className="ops-muted">sejak {order.statusChangedAt}</span>
        <span className="ops-muted">Tanggal Pembelian {order.createdAt}</span>
      </div>

      {failed?.conflict ? (
        <p className="ops-alert" role="alert" data-testid="ops-conflict">
          {failed.conflict}
        </p>
      ) : null}

      {decisions.length ? <DecisionForms decisions={decisions} couriers={couriers} failed={failed} /> : null}

      <div className="ops-grid">
        <section className="ops-card" aria-labelledby="buyer-heading">
          <h2 id="buyer-heading">Pembeli</h2>
          <dl className="ops-facts">
            <dt>Nama</dt>
            <dd>{order.buyer.name}</dd>
            <dt>NIK</dt>
            <dd data-testid="ops-nik">
              {order.buyer.nik}
              {personalData.opened ? null : (
                <>
                  {" "}
                  <a href="?data=lengkap" data-testid="open-personal-data">
                    Lihat NIK dan Foto KTP
                  </a>
                </>
              )}
            </dd>
            {order.buyer.dadName ? (
              <>
                <dt>Nama Ayah Kandung</dt>
                <dd>{order.buyer.dadName}</dd>
              </>
            ) : null}
            <dt>No. HP</dt>
            <dd>{order.buyer.phone}</dd>
            <dt>Email</dt>
            <dd>
              <EmailText email={order.buyer.email} />
            </dd>
            <dt>Akun</dt>
            {/* The account's e-mail on a line of its own, without brackets: a long address no longer
                leaves a lone ')' on the next line (issue 38). */}
            <dd data-testid="buyer-account">
              {order.buyer.accountName}
              <br />
              <span className="ops-muted">
                <EmailText email={order.buyer.accountEmail} />
              </span>
            </dd>
            <dt>NIP</dt>
            <dd>
              {order.buyer.nip ?? order.buyer.accountNip}
              {order.buyer.nip && order.buyer.nip !== order.buyer.accountNip ? ` (akun: ${order.buyer.accountNip})` : ""}
            </dd>
            <dt>Perusahaan</dt>
            <dd>{order.buyer.company}</dd>
          </dl>
        </section>

        <section className="ops-card" aria-labelledby="address-heading">
          <h2 id="address-heading">Alamat Pengiriman</h2>
          <p>
            {order.address.full}
            <br />
            {order.address.kelurahan}, {order.address.kecamatan}
            <br />
            {order.address.kota}, {order.address.provinsi} {order.address.kodePos}
          </p>
          {order.note ? <p className="ops-muted">Catatan: {order.note}</p> : null}
          {order.courier ? (
            <dl className="ops-facts">
              <dt>Kurir</dt>
              <dd>{order.courier}</dd>
              <dt>Nomor Resi</dt>
              <dd data-testid="ops-tracking">{order.trackingNumber}</dd>
            </dl>
          ) : null}
        </section>

        <section className="ops-card" aria-labelledby="product-heading">
          <h2 id="product-heading">Produk dan Harga</h2>
          <ul>
            {order.products.map((product, i) => (
              <li key={i}>
                {product.title} × {product.qty}
              </li>
            ))}
          </ul>
          <dl className="ops-facts">
            <dt>Harga</dt>
            <dd>{formatRupiah(order.priceOri)}</dd>
            {order.costLines.map((line) => (
              <FactRow key={line.label} label={line.label} value={formatRupiah(line.amount)} />
            ))}
            {order.insentif ? <FactRow label="Insentif Pemerintah" value={formatRupiah(-order.insentifValue)} /> : null}
            {order.promoPegawai ? <FactRow label="Promo Pegawai" value={formatRupiah(-order.promoPegawaiValue)} /> : null}
            <dt>Total Belanja</dt>
            <dd>
              <strong>{formatRupiah(order.amount)}</strong>
            </dd>
          </dl>
        </section>

        <section className="ops-card" aria-labelledby="payment-heading">
          <h2 id="payment-heading">Pembayaran</h2>
          <dl className="ops-facts">
            <dt>Metode</dt>
            <dd>
              {order.paymentMethodName ?? "Belum dipilih"}
              {order.tenor ? ` (${order.tenor} bulan)` : ""}
            </dd>
            {p ? (
              <>
                <dt>{PAYMENT_KINDS[p.type as PaymentMethodType].accountLabel}</dt>
                <dd>{p.vaNumber ?? "-"}</dd>
                {p.discount ? <FactRow label="Diskon" value={formatRupiah(-p.discount)} /> : null}
                {p.fee ? <FactRow label="Biaya" value={formatRupiah(p.fee)} /> : null}
                {p.uniqueCode !== null ? (
                  <>
                    <dt>Kode Unik</dt>
                    <dd>
                      <mark className="ops-unique-code" data-testid="ops-unique-code">
                        {String(p.uniqueCode).padStart(3, "0")}
                      </mark>
                    </dd>
                  </>
                ) : null}
                <dt>Jumlah</dt>
                <dd data-testid="ops-payment-total">
                  <PaymentTotal total={p.total} uniqueCode={p.uniqueCode} />
                </dd>
                {p.expiresAt ? <FactRow label="Batas Bayar" value={p.expiresAt} /> : null}
                {p.markedPaidAt ? <FactRow label="Ditandai Dibayar" value={p.markedPaidAt} /> : null}
                {p.paidAt ? <FactRow label="Dibayar" value={p.paidAt} /> : null}
              </>
            ) : (
              <>
                <dt>Jumlah</dt>
                <dd>{formatRupiah(order.totalAmount)}</dd>
              </>
            )}
          </dl>
        </section>
      </div>

      <section className="ops-card" aria-labelledby="photos-heading" style={{ marginTop: 16 }}>
        <h2 id="photos-heading">Foto dan Bukti</h2>
        <div className="ops-photos">
          {personalData.ktpUrl ? (
            <Photo url={personalData.ktpUrl} alt="Foto KTP" />
          ) : personalData.ktp === "deleted" ? (
            <p className="ops-muted" data-testid="ktp-deleted">
              {KTP_DELETED}
            </p>
          ) : personalData.ktp === "present" ? (
            <p className="ops-muted" data-testid="ktp-hidden">
              Foto KTP disembunyikan. <a href="?data=lengkap">Lihat NIK dan Foto KTP</a> (tercatat di Log Akses Data Pribadi).
            </p>
          ) : (
            <p className="ops-muted">Tidak ada foto KTP.</p>
          )}
          {order.transferProofUrl ? <Photo url={order.transferProofUrl} alt="Bukti Transfer" /> : null}
          {order.deliveryPhotoUrls.map((url) => (
            <Photo key={url} url={url} alt="Bukti Barang Sampai" />
          ))}
        </div>
      </section>

      <div className="ops-grid">
        <section className="ops-card" aria-labelledby="nik-heading">
          <h2 id="nik-heading">Pesanan Lain dengan NIK yang Sama</h2>
          {order.sameNik.length === 0 ? (
            <p className="ops-muted" data-testid="same-nik-none">
              Tidak ada.
            </p>
          ) : (
            <ul data-testid="same-nik">
              {order.sameNik.map((o) => (
                <li key={o.id}>
                  <a href={`/ops/orders/${o.id}`}>{o.invoiceId}</a> · <StatusBadge id={o.statusId} name={o.statusName} /> · {o.buyerEmail} ·{" "}
                  {o.createdAt}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="ops-card" aria-labelledby="timeline-heading">
          <h2 id="timeline-heading">Riwayat</h2>
          <ol className="ops-timeline" data-testid="timeline">
            {order.timeline.map((e, i) => (
              <li key={i}>
                <span className="when">{e.at}</span> · <strong>{e.toStatusName}</strong>
                <br />
                oleh {e.who}
                {e.note ? <> — {e.note}</> : null}
                {e.proofs.map((proof) => (
                  <span key={proof.url}>
                    {" "}
                    ·{" "}
                    <a href={proof.url} target="_blank" rel="noopener">
                      {proof.label}
                    </a>
                  </span>
                ))}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}

function FactRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** The total with its last three digits (the manual transfer's unique code) marked. */
function PaymentTotal({ total, uniqueCode }: { total: number; uniqueCode: number | null }) {
  const text = formatRupiah(total);
  if (uniqueCode === null || text.length < 3) return <strong>{text}</strong>;
  return (
    <strong>
      {text.slice(0, -3)}
      <mark className="ops-unique-code">{text.slice(-3)}</mark>
    </strong>
  );
}
