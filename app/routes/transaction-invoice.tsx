import type { Route } from "./+types/transaction-invoice";
import { notFound, orderIdOf } from "~/.server/http/route-params";
import { requireUser } from "~/.server/http/auth";
import { formatDateTimeWib } from "~/.server/dates";
import { costLines, getOwnedOrderDetail } from "~/.server/store/orders";
import { PriceLines } from "~/components/price-lines";
import { displayTitle, ORDER_TITLE_LENGTH } from "~/lib/display";
import { formatRupiah } from "~/lib/money";
import { cashDiscountLine, VA_DISCOUNT_PERCENT } from "~/lib/payment-pricing";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Invoice" };

/** Spec §2 Invoice: the owner's order as an invoice, 'LUNAS' with the date once paid (300, 400, 500); prints on one A4 page. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireUser(context);
  const order = await getOwnedOrderDetail(orderIdOf(params.id), user.id);
  if (!order) notFound();
  return {
    order: { ...order, orderProducts: order.orderProducts.map((p) => ({ ...p, title: displayTitle(p.title, ORDER_TITLE_LENGTH) })) },
    lines: costLines(order),
    // Paid from the moment the payment is received (300), through shipping (400) and done (500).
    paid: order.paidAt !== null,
    paidAtText: order.paidAt ? formatDateTimeWib(order.paidAt) : null,
  };
}

export default function Invoice({ loaderData }: Route.ComponentProps) {
  const { order, lines, paid, paidAtText } = loaderData;
  const subtotal = order.orderProducts.reduce((sum, p) => sum + p.priceOri * p.qty, 0);
  return (
    <article className={`invoice${paid ? " is-paid" : ""}`} data-testid="invoice">
      <header className="invoice-head">
        <div>
          <p className="invoice-brand">Toko Pegawai PLN</p>
          <h2 className="invoice-number" data-testid="invoice-number">
            {order.invoiceId}
          </h2>
          <p className="muted small">
            Diterbitkan pada <span data-testid="invoice-issued">-</span>
          </p>
        </div>
        {paid ? (
          <div className="paid-mark">
            <p className="paid-stamp" data-testid="paid-stamp">
              LUNAS
            </p>
            {paidAtText ? (
              <p className="muted small" data-testid="paid-at">
                Dibayar pada {paidAtText}
              </p>
            ) : null}
          </div>
        ) : null}
      </header>

      <section className="invoice-buyer" aria-labelledby="invoice-buyer">
        <h3 id="invoice-buyer">Pembeli</h3>
        <p className="strong">{order.buyerName}</p>
        <p>
          {order.buyerEmail} · {order.buyerPhoneNumber}
        </p>
        <p>
          {order.fullAddress}, {order.kelurahan}, {order.kecamatan}, {order.kota}, {order.provinsi} {order.kodePos}
        </p>
      </section>

      <table className="invoice-table">
        <thead>
          <tr>
            <th scope="col">Nama Produk</th>
            <th scope="col" className="num">
              Jumlah
            </th>
            <th scope="col" className="num">
              Harga
            </th>
            <th scope="col" className="num">
              Subtotal
            </th>
          </tr>
        </thead>
        <tbody>
          {order.orderProducts.map((product) => (
            <tr key={product.id}>
              <td>{product.title}</td>
              <td className="num">{product.qty}</td>
              <td className="num">{formatRupiah(product.priceOri)}</td>
              <td className="num">{formatRupiah(product.priceOri * product.qty)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <PriceLines
        className="price-list invoice-sums"
        testId="invoice-sums"
        lines={[
          { label: "Subtotal", amount: subtotal },
          { label: "Insentif Pemerintah", amount: order.insentif ? -order.insentifValue : "-" },
          ...lines,
          ...(order.promoPegawaiValue > 0 ? [{ label: "Promo Pegawai", amount: -order.promoPegawaiValue }] : []),
          // The payment's own lines (issue 25): they take 'Total Belanja' to what was paid.
          ...(order.payment && order.payment.discount > 0
            ? [{ label: cashDiscountLine(order.payment.discountPercent ?? VA_DISCOUNT_PERCENT), amount: -order.payment.discount }]
            : []),
          ...(order.payment && order.payment.fee > 0 ? [{ label: "Biaya layanan", amount: order.payment.fee }] : []),
          ...(order.payment?.uniqueCode ? [{ label: "Kode Unik", amount: order.payment.uniqueCode }] : []),
          { label: "Total Bayar", amount: order.totalAmount, total: true, testId: "invoice-total" },
        ]}
      />
      <p className="muted small">Metode Pembayaran: {order.paymentMethodName ?? "-"}</p>
    </article>
  );
}
