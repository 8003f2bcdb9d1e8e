import type { Route } from "./+types/finance";
import { formatDateWib, startOfDayWib } from "~/.server/dates";
import { requireStaff } from "~/.server/http/ops-access";
import { financeReport, type MoneyPicture, refundCounts } from "~/.server/store/refunds";
import { formatRupiah } from "~/lib/money";
import { REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";
import type { RouteHandle } from "~/lib/route-handle";

// /ops/finance 'Keuangan' (issue 36 item 5, keuangan or admin): per WIB day and payment method the
// money received, refunded and net; the refunds still open; and any order whose money does not add
// up (received ≠ kept + refunds). The same days as `npm run ops -- finance:report` (CSV). Days are
// written '29 Nov 2026' as on every other page (the CSV keeps YYYY-MM-DD); 'Metode Pembayaran' is
// how the buyer paid, not how a refund goes back (/ops/refunds' 'Cara Pengembalian'), issue 43.

export const handle: RouteHandle = { title: "Keuangan · Back Office" };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const wibDay = (date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(date);
/** The open states, each a link to its tab on /ops/refunds: finance's own work first. */
const OPEN_STATES: RefundState[] = ["processing", "failed", "awaiting-account"];
const METHOD_NAMES: Record<string, string> = {
  virtual_account: "Virtual Account",
  bank_transfer: "Transfer Manual",
  installment: "Cicilan",
  paylater: "Paylater",
  "-": "-",
};

export async function loader({ context, url }: Route.LoaderArgs) {
  requireStaff(context, "keuangan");
  const today = wibDay(new Date());
  const from = DAY.test(url.searchParams.get("from") ?? "")
    ? url.searchParams.get("from")!
    : wibDay(new Date(Date.now() - 29 * 86_400_000));
  const to = DAY.test(url.searchParams.get("to") ?? "") ? url.searchParams.get("to")! : today;
  const [report, counts] = await Promise.all([financeReport(from, to), refundCounts()]);
  return {
    from,
    to,
    periodLabel: `${formatDateWib(startOfDayWib(from))} – ${formatDateWib(startOfDayWib(to))}`,
    ...report,
    days: report.days.map((d) => ({ ...d, label: formatDateWib(startOfDayWib(d.day)) })),
    openStates: OPEN_STATES.map((state) => ({
      state,
      name: REFUND_STATE_NAMES[state],
      count: counts[state].count,
      amount: counts[state].amount,
    })),
  };
}

export default function OpsFinance({ loaderData }: Route.ComponentProps) {
  const { from, to, days, open, openStates, unbalanced, allTime, period, periodLabel } = loaderData;
  const total = days.reduce((sum, d) => ({ received: sum.received + d.received, refunded: sum.refunded + d.refunded }), {
    received: 0,
    refunded: 0,
  });
  return (
    <>
      <p>
        <a href="/ops">‹ Antrean</a>
      </p>
      <h1>Keuangan</h1>
      <form method="get" className="ops-inline-form">
        <div className="ops-field">
          <label htmlFor="from">Dari</label>
          <input id="from" name="from" type="date" defaultValue={from} />
        </div>
        <div className="ops-field">
          <label htmlFor="to">Sampai</label>
          <input id="to" name="to" type="date" defaultValue={to} />
        </div>
        <button type="submit" className="ops-btn ops-btn-secondary">
          Tampilkan
        </button>
      </form>
      <MoneyPictureTable allTime={allTime} period={period} periodLabel={periodLabel} />
      <section className="ops-card" aria-labelledby="open-heading">
        <h2 id="open-heading">Pengembalian Dana Terbuka</h2>
        <p data-testid="finance-open">
          {open.count === 0
            ? "Semua pengembalian dana sudah dikembalikan ke pembeli."
            : `${open.count} pengembalian dana senilai ${formatRupiah(open.amount)} belum dikembalikan ke pembeli.`}
        </p>
        <ul className="ops-open-refunds">
          {openStates.map((s) => (
            <li key={s.state}>
              <a href={`/ops/refunds?state=${s.state}`} data-testid={`finance-open-${s.state}`}>
                {s.name}
              </a>
              : {s.count} · {formatRupiah(s.amount)}
            </li>
          ))}
        </ul>
      </section>
      {/* Focusable: on a phone the table scrolls sideways, and a keyboard must be able to scroll it
          (axe: scrollable-region-focusable; the table holds no link or field that would take the focus). */}
      <section className="ops-table-wrap" aria-label="Dana per hari dan metode pembayaran" tabIndex={0}>
        <table className="ops-table" data-testid="finance-days">
          <thead>
            <tr>
              <th scope="col">Tanggal (WIB)</th>
              <th scope="col">Metode Pembayaran</th>
              <th scope="col" className="num">
                Diterima
              </th>
              <th scope="col" className="num">
                Dikembalikan
              </th>
              <th scope="col" className="num">
                Bersih
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={`${d.day}-${d.method}`}>
                <td>{d.label}</td>
                <td>{METHOD_NAMES[d.method] ?? d.method}</td>
                <td className="num">{formatRupiah(d.received)}</td>
                <td className="num">{formatRupiah(d.refunded)}</td>
                <td className="num">{formatRupiah(d.net)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" colSpan={2}>
                Jumlah
              </th>
              <td className="num">
                <strong>{formatRupiah(total.received)}</strong>
              </td>
              <td className="num">
                <strong>{formatRupiah(total.refunded)}</strong>
              </td>
              <td className="num">
                <strong>{formatRupiah(total.received - total.refunded)}</strong>
              </td>
            </tr>
          </tbody>
        </table>
      </section>
      <section className="ops-card" aria-labelledby="unbalanced-heading">
        <h2 id="unbalanced-heading">Pesanan dengan Dana Tidak Sesuai (dana bergerak pada periode ini)</h2>
        {unbalanced.length === 0 ? (
          <p className="ops-muted" data-testid="finance-balanced">
            Semua dana yang diterima tercatat sebagai pembayaran pesanan atau pengembalian dana.
          </p>
        ) : (
          <ul data-testid="finance-unbalanced">
            {unbalanced.map((o) => (
              <li key={o.orderId}>
                <a href={`/ops/orders/${o.orderId}`}>{o.invoiceId}</a> (status {o.statusId}): diterima {formatRupiah(o.received)}, disimpan{" "}
                {formatRupiah(o.kept)}, pengembalian {formatRupiah(o.refunds)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

const PICTURE_ROWS: { key: keyof MoneyPicture; name: string }[] = [
  { key: "received", name: "Diterima" },
  { key: "kept", name: "Disimpan (pembayaran pesanan)" },
  { key: "refunded", name: "Dikembalikan" },
  { key: "open", name: "Pengembalian terbuka" },
  { key: "difference", name: "Selisih" },
  { key: "net", name: "Bersih (tanpa pengembalian terbuka)" },
];

/**
 * 'Neraca Dana' (issue 45 item 7): every rupiah received is kept, given back or owed back, for all
 * time and for the orders whose money first arrived in the period; a difference says a row is wrong.
 */
function MoneyPictureTable({ allTime, period, periodLabel }: { allTime: MoneyPicture; period: MoneyPicture; periodLabel: string }) {
  const verdict = (picture: MoneyPicture, scope: string) =>
    picture.difference === 0
      ? `${scope}: seimbang.`
      : `${scope}: selisih ${formatRupiah(picture.difference)}. Ada dana yang tidak tercatat sebagai pembayaran atau pengembalian dana.`;
  return (
    <section className="ops-card" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Neraca Dana</h2>
      <p className="ops-muted">
        Diterima = Disimpan + Dikembalikan + Pengembalian terbuka. Periode: pesanan yang dananya pertama kali diterima pada periode ini,
        dengan keadaannya sekarang.
      </p>
      <section className="ops-table-wrap" tabIndex={0} aria-label="Neraca dana sejak awal dan periode ini">
        <table className="ops-table" data-testid="finance-picture">
          <thead>
            <tr>
              <th scope="col">Dana</th>
              <th scope="col" className="num">
                Sejak awal
              </th>
              <th scope="col" className="num">
                Periode {periodLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {PICTURE_ROWS.map((row) => (
              <tr key={row.key} data-testid={`finance-picture-${row.key}`}>
                <th scope="row">{row.name}</th>
                <td className="num">{formatRupiah(allTime[row.key])}</td>
                <td className="num">{formatRupiah(period[row.key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p data-testid="finance-picture-verdict" role={allTime.difference || period.difference ? "alert" : undefined}>
        {verdict(allTime, "Sejak awal")} {verdict(period, "Periode ini")}
      </p>
    </section>
  );
}
