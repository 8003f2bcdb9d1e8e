import { data, Link, redirect } from "react-router";
import { EmailText } from "~/components/email-text";
import type { Route } from "./+types/transaction-detail";
import { notFound, orderIdOf } from "~/.server/http/route-params";
import { requireUser } from "~/.server/http/auth";
import { formatDateWib } from "~/.server/dates";
import { readForm } from "~/.server/http/request";
import { processProofUpload } from "~/.server/store/orders";
import { flash } from "~/.server/http/session";
import { costLines, getOwnedOrderDetail } from "~/.server/store/orders";
import { getBuyerOpsFacts } from "~/.server/store/back-office";
import {
  cancelOrder,
  confirmDelivery,
  MAX_DELIVERY_PROOFS,
  ORDER_CANCELLED,
  PROOF_REQUIRED,
  TOO_MANY_PROOFS,
} from "~/.server/store/orders";
import { saveUpload, uploadUrl } from "~/.server/store/orders";
import { listOwnedRefunds, submitRefundAccount } from "~/.server/store/refunds";
import { ASKS_FOR_ACCOUNT, maskAccountNumber, REFUND_BANKS, REFUND_STATE_NAMES } from "~/lib/refunds";
import { isEmptyFile } from "~/.server/images";
import { PriceLines } from "~/components/price-lines";
import { EDIT_ACCOUNT_PARAM, RefundBlock, type RefundFormData } from "~/components/refund-block";
import { CancelConfirmation, ConfirmArrival } from "~/components/order-sheets";
import { displayTitle, ORDER_TITLE_LENGTH } from "~/lib/display";
import { formatRupiah } from "~/lib/money";
import { orderActions } from "~/lib/order-actions";
import type { RouteHandle } from "~/lib/route-handle";
import { KTP_DELETED } from "~/lib/privacy";

// /transaction-detail/:id (spec §2 Order detail): the buyer's order, its payment, delivery, refund
// (issue 36) and the actions its status allows. Its server-rendered sheets (cancel, confirm arrival)
// are in components/order-sheets.tsx, the refund block in components/refund-block.tsx.

export const handle: RouteHandle = { title: "Detail Transaksi" };

const SHEETS = ["cancel", "confirm"] as const;

/** Spec §2 Order detail: the owner's order (anyone else, and unknown ids, get the 404 page). */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const order = await getOwnedOrderDetail(orderIdOf(params.id), user.id);
  if (!order) notFound();
  const sheetParam = url.searchParams.get("sheet");
  const actions = orderActions(order);
  // A sheet opens only where its action is offered (a stale ?sheet=cancel shows the plain page).
  const sheet = SHEETS.find((s) => s === sheetParam && (s === "cancel" ? actions.cancel : actions.confirm)) ?? null;
  return {
    // The layout's status bar reads this.
    status: { id: order.statusId, name: order.statusName },
    order: {
      ...order,
      createdAt: formatDateWib(order.createdAt),
      orderProducts: order.orderProducts.map((p) => ({ ...p, title: displayTitle(p.title, ORDER_TITLE_LENGTH) })),
    },
    lines: costLines(order),
    actions,
    sheet,
    // The operators' side (issue 17): courier and tracking number, a rejection's reason.
    ops: await opsFactsForBuyer(order.id),
    // Money going back to the buyer (issue 36).
    refunds: (await listOwnedRefunds(order.id, user.id)).map(({ proofUploadId, createdAt: _, refundedAt, ...r }) => ({
      ...r,
      // Once the money went, the page names the account by its last four digits only (issue 43 item 5).
      accountNumber: r.state === "refunded" && r.accountNumber ? maskAccountNumber(r.accountNumber) : r.accountNumber,
      stateName: REFUND_STATE_NAMES[r.state],
      proofUrl: proofUploadId ? uploadUrl(proofUploadId) : null,
      refundedAt: refundedAt ? formatDateWib(refundedAt) : null,
      // While finance checks the money the buyer gives an account once, then may correct it.
      asksForAccount: r.method === "transfer" && ASKS_FOR_ACCOUNT.includes(r.state) && !(r.state === "awaiting-funds" && r.accountNumber),
      // Until finance acts the buyer may correct what they sent: 'Ubah Data Rekening' is this page with ?rekening=<id>.
      correctable: r.method === "transfer" && (r.state === "processing" || (r.state === "awaiting-funds" && !!r.accountNumber)),
      editing: r.method === "transfer" && r.state === "processing" && url.searchParams.get(EDIT_ACCOUNT_PARAM) === String(r.id),
    })),
    banks: REFUND_BANKS,
  };
}

async function opsFactsForBuyer(orderId: number) {
  const facts = await getBuyerOpsFacts(orderId);
  const rejected = {
    incentive: "Pengajuan insentif ditolak",
    installment: "Pengajuan cicilan ditolak",
    transfer: "Bukti transfer ditolak",
  } as const;
  return {
    courier: facts.courier,
    trackingNumber: facts.trackingNumber,
    rejection: facts.rejection && {
      title: rejected[facts.rejection.kind],
      reason: facts.rejection.reason,
      at: formatDateWib(facts.rejection.at),
    },
  };
}

/** The buyer's actions: each a POST with its `intent`, one conditional update in the store. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const user = requireUser(context);
  const orderId = orderIdOf(params.id);
  const here = `/transaction-detail/${orderId}`;
  const form = await readForm(request);
  const intent = form.get("intent");

  if (intent === "cancel") {
    const result = await cancelOrder(orderId, user.id);
    if (!result.ok && result.notFound) notFound();
    flash(context, "toast", result.ok ? { type: "success", message: ORDER_CANCELLED } : { type: "danger", message: result.message });
    throw redirect(here);
  }

  if (intent === "confirm") {
    const order = await getOwnedOrderDetail(orderId, user.id);
    if (!order) notFound();
    if (!orderActions(order).confirm) {
      // A stale page or a second tab: the store says why (it refuses on the status before it
      // looks at the proof) and changes nothing.
      const refused = await confirmDelivery(orderId, user.id, "");
      flash(context, "toast", { type: "danger", message: refused.ok ? PROOF_REQUIRED : refused.message });
      throw redirect(here);
    }
    // One `multiple` input: 1 to 5 files, each checked as one; the first bad file refuses them all.
    const picked = form.getAll("bukti").filter((value): value is File => !isEmptyFile(value));
    if (!picked.length) return data({ confirmError: PROOF_REQUIRED }, { status: 400 });
    if (picked.length > MAX_DELIVERY_PROOFS) return data({ confirmError: TOO_MANY_PROOFS }, { status: 400 });
    const files = [];
    for (const file of picked) {
      const processed = await processProofUpload(file);
      if (!processed.ok)
        return data({ confirmError: picked.length > 1 ? `${file.name}: ${processed.message}` : processed.message }, { status: 400 });
      files.push(processed.file);
    }
    const proofIds = [];
    for (const file of files) proofIds.push(await saveUpload(user.id, "delivery-proof", file));
    const result = await confirmDelivery(orderId, user.id, proofIds);
    if (!result.ok) {
      if (result.notFound) notFound();
      flash(context, "toast", { type: "danger", message: result.message });
      throw redirect(here);
    }
    // Spec §4: the flow ends on Transaction Done, with the reward sheet over it.
    throw redirect(`/transaction-done?order=${orderId}`);
  }

  if (intent === "refund-account") {
    const refundId = Number(form.get("refundId"));
    const values = {
      bankName: String(form.get("bankName") ?? "").slice(0, 100),
      accountNumber: String(form.get("accountNumber") ?? "").slice(0, 40),
      accountHolder: String(form.get("accountHolder") ?? "").slice(0, 200),
    };
    // Only a refund of this very order (the store checks it is the buyer's own).
    const own = (await listOwnedRefunds(orderId, user.id)).find((r) => r.id === refundId);
    if (!own) notFound();
    const result = await submitRefundAccount(refundId, user.id, values);
    if (result.ok) {
      const message =
        own.state === "processing" ? "Data rekening diperbarui." : "Data rekening terkirim. Pengembalian dana sedang diproses.";
      flash(context, "toast", { type: "success", message });
      throw redirect(here);
    }
    if (result.kind === "not-found") notFound();
    if (result.kind === "invalid")
      return data({ refundForm: { refundId, errors: result.errors, values } satisfies RefundFormData }, { status: 400 });
    flash(context, "toast", { type: "danger", message: result.message });
    throw redirect(here);
  }

  return data({ confirmError: null as string | null, message: "Aksi tidak dikenal." }, { status: 400 });
}

export default function TransactionDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { order, lines, actions } = loaderData;
  const confirmError = actionData && "confirmError" in actionData ? actionData.confirmError : null;
  const refundForm = actionData && "refundForm" in actionData ? (actionData.refundForm as RefundFormData) : null;
  const sheet = confirmError ? "confirm" : loaderData.sheet;
  const here = `/transaction-detail/${order.id}`;
  const totalQty = order.orderProducts.reduce((sum, p) => sum + p.qty, 0);
  return (
    <div className="order-detail" data-testid="order-detail">
      <section className="card">
        <div className="row-between">
          <div>
            <p className="muted small">No. Invoice</p>
            <p className="strong" data-testid="invoice-id">
              {order.invoiceId}
            </p>
          </div>
          <Link to={`/transaction-invoice/${order.id}`} className="link-button">
            Lihat Invoice
          </Link>
        </div>
        <div className="row-between">
          <span className="muted">Tanggal Pembelian</span>
          <span data-testid="purchase-date">{order.createdAt}</span>
        </div>
      </section>

      {loaderData.ops.rejection ? (
        <section className="card" role="note" aria-labelledby="rejection-heading" data-testid="rejection-reason">
          <h2 id="rejection-heading">{loaderData.ops.rejection.title}</h2>
          <p>
            <span className="muted">Alasan: </span>
            {loaderData.ops.rejection.reason}
          </p>
        </section>
      ) : null}

      {loaderData.refunds.map((refund) => (
        <RefundBlock
          key={refund.id}
          refund={refund}
          banks={loaderData.banks}
          action={here}
          failed={refundForm?.refundId === refund.id ? refundForm : null}
        />
      ))}

      {loaderData.ops.trackingNumber ? (
        <section className="card" aria-labelledby="shipping-heading" data-testid="shipping-info">
          <h2 id="shipping-heading">Pengiriman</h2>
          <div className="row-between">
            <span className="muted">Kurir</span>
            <span data-testid="courier">{loaderData.ops.courier}</span>
          </div>
          <div className="row-between">
            <span className="muted">Nomor Resi</span>
            <span className="strong" data-testid="tracking-number">
              {loaderData.ops.trackingNumber}
            </span>
          </div>
        </section>
      ) : null}

      <section className="card" aria-labelledby="products-heading">
        <h2 id="products-heading">Produk</h2>
        <ul className="order-products">
          {order.orderProducts.map((product) => (
            <li key={product.id} className="order-product">
              {product.imageUrl ? (
                <img src={product.imageUrl} alt="" width={64} height={64} className="order-card-image" />
              ) : (
                <span className="order-card-image" aria-hidden="true" />
              )}
              <div className="order-card-info">
                <span className="order-card-title">{product.title}</span>
                <span className="muted">{product.qty} barang</span>
                <span className="strong">{formatRupiah(product.price)}</span>
              </div>
            </li>
          ))}
        </ul>
        <div className="row-between total-row">
          <span>Total ({totalQty} barang)</span>
          <strong>{formatRupiah(order.amount)}</strong>
        </div>
      </section>

      <section className="card" aria-labelledby="buyer-heading">
        <h2 id="buyer-heading">Data Pembeli</h2>
        <dl className="facts">
          <dt>Nama Penerima</dt>
          <dd>{order.buyerName}</dd>
          <dt>NIK</dt>
          <dd data-testid="buyer-nik">{order.buyerNik}</dd>
          {order.ktpDeleted ? (
            <>
              <dt>Foto KTP</dt>
              <dd data-testid="ktp-deleted">{KTP_DELETED}</dd>
            </>
          ) : null}
          <dt>No. HP</dt>
          <dd>{order.buyerPhoneNumber}</dd>
          <dt>Email</dt>
          <dd>
            <EmailText email={order.buyerEmail} />
          </dd>
          <dt>Alamat</dt>
          <dd data-testid="buyer-address">
            {order.fullAddress}, {order.kelurahan}, {order.kecamatan}, {order.kota}, {order.provinsi} {order.kodePos}
          </dd>
        </dl>
      </section>

      <section className="card" aria-labelledby="cost-heading">
        <h2 id="cost-heading">Rincian Pembayaran</h2>
        <PriceLines
          className="price-list"
          testId="cost-lines"
          lines={[
            { label: "Metode Pembayaran", amount: order.paymentMethodName ?? "-" },
            { label: "Harga", amount: order.priceOri },
            ...lines,
            ...(order.insentif ? [{ label: "Insentif Pemerintah", amount: -order.insentifValue }] : []),
            ...(order.promoPegawaiValue > 0 ? [{ label: "Promo Pegawai", amount: -order.promoPegawaiValue }] : []),
            { label: "Total Belanja", amount: order.amount, total: true, testId: "total-belanja" },
            ...(order.totalAmount !== order.amount
              ? [{ label: "Jumlah Transfer", amount: order.totalAmount, total: true, testId: "jumlah-transfer" }]
              : []),
          ]}
        />
        {order.deliveryProofUrls.length ? (
          <ul className="delivery-proofs" aria-label="Bukti Barang Sampai">
            {order.deliveryProofUrls.map((url, i) => (
              <li key={url}>
                <a href={url} target="_blank" rel="noopener" data-testid="delivery-proof">
                  {order.deliveryProofUrls.length > 1 ? `Lihat Bukti Barang Sampai ${i + 1}` : "Lihat Bukti Barang Sampai"}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      {actions.cancel || actions.pay || actions.confirm ? (
        <div className="order-actions">
          {actions.pay ? (
            actions.pay.external ? (
              <a href={actions.pay.href} className="btn btn-primary btn-block">
                {actions.pay.label}
              </a>
            ) : (
              <Link to={actions.pay.href} className="btn btn-primary btn-block">
                {actions.pay.label}
              </Link>
            )
          ) : null}
          {actions.confirm ? (
            <Link to={`${here}?sheet=confirm`} className="btn btn-primary btn-block" preventScrollReset>
              Konfirmasi Barang Sampai
            </Link>
          ) : null}
          {actions.cancel ? (
            <Link to={`${here}?sheet=cancel`} className="btn btn-outline-danger btn-block" preventScrollReset>
              Batalkan Pesanan
            </Link>
          ) : null}
        </div>
      ) : null}

      {sheet === "cancel" ? <CancelConfirmation closeHref={here} /> : null}
      {sheet === "confirm" ? <ConfirmArrival closeHref={here} error={confirmError} /> : null}
    </div>
  );
}
