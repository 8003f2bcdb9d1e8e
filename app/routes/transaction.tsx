import { Form, Link } from "react-router";
import type { Route } from "./+types/transaction";
import { requireUser } from "~/.server/http/auth";
import { dayWib, formatDateWib } from "~/.server/dates";
import { hasOrders, listOrderHistoryPages, listOrderStatuses, type OrderHistoryPage } from "~/.server/store/orders";
import { refundStatesOf } from "~/.server/store/refunds";
import { REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";
import { CloseIcon } from "~/components/icons";
import { Sheet } from "~/components/sheet";
import { useAppendingPages } from "~/components/use-appending-pages";
import { displayTitle, ORDER_TITLE_LENGTH } from "~/lib/display";
import { formatRupiah } from "~/lib/money";
import { listAction } from "~/lib/order-actions";
import { statusTone } from "~/lib/order-status";
import { readPage } from "~/lib/paging";
import type { RouteHandle } from "~/lib/route-handle";
import { FIRST_DAY, formatDay, readTransactionFilters, transactionHref, type TransactionFilters } from "~/lib/transaction-filters";

export const handle: RouteHandle = { title: "Transaksi" };

const SHEETS = ["status", "date"] as const;
type SheetName = (typeof SHEETS)[number];

/** A card of the list, ready to print (dates formatted on the server, in WIB). */
function cardOf(order: OrderHistoryPage["content"][number], refundStates: Map<number, RefundState>) {
  const refundState = refundStates.get(order.id);
  return {
    id: order.id,
    statusId: order.statusId,
    statusName: order.statusName,
    statusDate: formatDateWib(order.statusDate),
    imageUrl: order.imageUrl,
    productTitle: displayTitle(order.productTitle, ORDER_TITLE_LENGTH),
    quantity: order.quantity,
    amount: order.amount,
    // 'Jumlah Transfer' when the payment's total differs (VA discount, fee, unique code: spec §2).
    transfer: order.totalAmount !== order.amount ? order.totalAmount : null,
    action: listAction(order),
    // Money going back for this order (issue 36): the latest refund's state, by its name.
    refund: refundState ? REFUND_STATE_NAMES[refundState] : null,
  };
}
export type TransactionCard = ReturnType<typeof cardOf>;
type CardPage = Omit<OrderHistoryPage, "content"> & { content: TransactionCard[] };

/** Spec §2 Transaction list: the user's orders with the filters of the address, pages 0..N. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  if (!user.verified) return { verified: false as const };
  const { page, only } = readPage(url);
  const statuses = await listOrderStatuses();
  const today = dayWib(new Date());
  const read = readTransactionFilters(
    url.searchParams,
    statuses.map((s) => s.id),
    today,
  );
  const history = await listOrderHistoryPages(user.id, read.filters, page, { only });
  const refundStates = await refundStatesOf(
    user.id,
    history.flatMap((p) => p.content.map((o) => o.id)),
  );
  const pages: CardPage[] = history.map((p) => ({ ...p, content: p.content.map((o) => cardOf(o, refundStates)) }));
  if (only) return { verified: true as const, pages };
  const sheetParam = url.searchParams.get("sheet");
  // A refused date range reopens its sheet with the message and what was typed.
  const sheet: SheetName | null = read.dateError ? "date" : (SHEETS.find((s) => s === sheetParam) ?? null);
  // 'Anda belum pernah bertransaksi' only when there is no order at all, not when a filter hides them.
  const everOrdered = pages[0]!.total > 0 || (await hasOrders(user.id));
  return {
    verified: true as const,
    pages,
    statuses,
    filters: read.filters,
    dateError: read.dateError,
    dateFromInput: read.dateFromInput,
    dateToInput: read.dateToInput,
    today,
    sheet,
    everOrdered,
  };
}

export default function TransactionScreen({ loaderData }: Route.ComponentProps) {
  if (!loaderData.verified) {
    return (
      <section className="empty-state" data-testid="transaction-unverified">
        <h2>Lakukan aktivasi akun dulu, yuk!</h2>
        <p className="muted">Buka e-mail aktivasi yang kami kirim untuk mulai bertransaksi.</p>
        <Link to="/home" className="btn btn-primary">
          Mulai Belanja
        </Link>
      </section>
    );
  }
  if (!("statuses" in loaderData)) return null; // only a script asks for `append=1`, and it reads the data
  const { pages, statuses, filters, dateError, sheet, everOrdered } = loaderData;
  if (!everOrdered) {
    return (
      <section className="empty-state" data-testid="transaction-empty">
        <h2>Anda belum pernah bertransaksi</h2>
        <Link to="/home" className="btn btn-primary">
          Mulai Belanja
        </Link>
      </section>
    );
  }
  const statusName = statuses.find((s) => s.id === filters.statusId)?.name;
  const filtered = filters.statusId !== undefined || filters.dateFrom !== undefined;
  const closeHref = transactionHref(filters);
  return (
    <>
      <nav className="filter-bar" aria-label="Filter transaksi">
        {filtered ? (
          <Link to="/transaction" className="filter-reset" aria-label="Hapus semua filter" data-testid="filter-reset">
            <CloseIcon />
          </Link>
        ) : null}
        <Link
          to={transactionHref(filters, { sheet: "status" })}
          className={`filter-chip${filters.statusId !== undefined ? " is-active" : ""}`}
          preventScrollReset
          data-testid="status-filter"
        >
          {statusName ?? "Semua Status"}
        </Link>
        <Link
          to={transactionHref(filters, { sheet: "date" })}
          className={`filter-chip${filters.dateFrom ? " is-active" : ""}`}
          preventScrollReset
          data-testid="date-filter"
        >
          {filters.dateFrom && filters.dateTo ? `${formatDay(filters.dateFrom)} - ${formatDay(filters.dateTo)}` : "Semua Tanggal"}
        </Link>
      </nav>
      {dateError ? (
        <p className="form-error" role="alert" data-testid="date-error">
          {dateError}
        </p>
      ) : null}
      <TransactionList pages={pages} filters={filters} />
      {sheet === "status" ? <StatusSheet statuses={statuses} filters={filters} closeHref={closeHref} /> : null}
      {sheet === "date" ? <DateSheet {...loaderData} closeHref={closeHref} /> : null}
    </>
  );
}

function TransactionList({ pages, filters }: { pages: CardPage[]; filters: TransactionFilters }) {
  const hrefForPage = (page: number) => transactionHref(filters, page > 0 ? { page: String(page) } : {});
  const { allPages, nextPage, done, loading, sentinel, onMoreClick } = useAppendingPages(pages, hrefForPage);
  const seen = new Set<number>();
  const cards = allPages
    .flatMap((page) =>
      page.content.map((card, index) => ({ card, anchor: page.page > 0 && index === 0 ? `halaman-${page.page}` : undefined })),
    )
    .filter(({ card }) => !seen.has(card.id) && seen.add(card.id));
  if (!cards.length) {
    return (
      <p className="muted center" data-testid="transaction-none">
        Tidak ada transaksi yang sesuai dengan filter.
      </p>
    );
  }
  return (
    <section aria-label="Daftar transaksi">
      <ul className="order-list">
        {cards.map(({ card, anchor }) => (
          <OrderCard key={card.id} card={card} anchor={anchor} />
        ))}
      </ul>
      <div ref={sentinel} className="product-grid-end">
        {loading ? (
          <p className="product-grid-loading" role="status">
            <span className="spinner" aria-hidden="true" /> Memuat…
          </p>
        ) : !done ? (
          <a className="btn btn-outline btn-block" href={`${hrefForPage(nextPage)}#halaman-${nextPage}`} onClick={onMoreClick}>
            Muat lebih banyak
          </a>
        ) : null}
      </div>
    </section>
  );
}

function OrderCard({ card, anchor }: { card: TransactionCard; anchor?: string }) {
  const detail = `/transaction-detail/${card.id}`;
  return (
    <li className="card order-card" id={anchor} data-testid="order-card" data-order-id={card.id}>
      <div className="order-card-head">
        <span className="muted">{card.statusDate}</span>
        <span className={`status-text text-${statusTone(card.statusId)}`} data-testid="order-status">
          {card.statusName}
        </span>
      </div>
      {card.refund ? (
        <p className="small" data-testid="order-refund">
          <span className="muted">Pengembalian Dana: </span>
          <strong>{card.refund}</strong>
        </p>
      ) : null}
      <Link to={detail} className="order-card-body">
        {card.imageUrl ? (
          <img src={card.imageUrl} alt="" width={64} height={64} loading="lazy" className="order-card-image" />
        ) : (
          <span className="order-card-image" aria-hidden="true" />
        )}
        <span className="order-card-info">
          <span className="order-card-title">{card.productTitle}</span>
          <span className="muted">{card.quantity} barang</span>
        </span>
      </Link>
      <div className="order-card-foot">
        <span>
          <span className="muted small">Total Belanja</span>
          <strong className="order-card-amount" data-testid="order-amount">
            {formatRupiah(card.amount)}
          </strong>
          {card.transfer !== null ? (
            <>
              <span className="muted small">Jumlah Transfer</span>
              <strong className="order-card-amount" data-testid="order-transfer">
                {formatRupiah(card.transfer)}
              </strong>
            </>
          ) : null}
        </span>
        {card.action.external ? (
          <a href={card.action.href} className="btn btn-primary btn-small">
            {card.action.label}
          </a>
        ) : (
          <Link to={card.action.href} className={`btn btn-small ${card.action.label === "Lihat Detail" ? "btn-outline" : "btn-primary"}`}>
            {card.action.label}
          </Link>
        )}
      </div>
    </li>
  );
}

/** 'Mau lihat status apa?': one link per status (a tap applies it and starts again at page 0). */
function StatusSheet({
  statuses,
  filters,
  closeHref,
}: {
  statuses: { id: number; name: string }[];
  filters: TransactionFilters;
  closeHref: string;
}) {
  const options = [{ id: undefined, name: "Semua Status" }, ...statuses];
  return (
    <Sheet title="Mau lihat status apa?" closeHref={closeHref} height="auto">
      <ul className="choice-links" data-testid="status-sheet">
        {options.map((status) => (
          <li key={status.id ?? "all"}>
            <Link
              to={transactionHref({ ...filters, statusId: status.id })}
              className="choice-link"
              aria-current={filters.statusId === status.id ? "true" : undefined}
            >
              {status.name}
            </Link>
          </li>
        ))}
      </ul>
    </Sheet>
  );
}

/** 'Tanggal Transaksi': a GET form (the address is the filter), native date inputs from 1980 to today. */
function DateSheet({
  filters,
  dateError,
  dateFromInput,
  dateToInput,
  today,
  closeHref,
}: {
  filters: TransactionFilters;
  dateError: string | null;
  dateFromInput: string;
  dateToInput: string;
  today: string;
  closeHref: string;
}) {
  return (
    <Sheet title="Tanggal Transaksi" closeHref={closeHref} height="auto">
      <Form method="get" action="/transaction" className="date-form" data-testid="date-sheet" key={`${dateFromInput}|${dateToInput}`}>
        {filters.statusId !== undefined ? <input type="hidden" name="statusId" value={filters.statusId} /> : null}
        {dateError ? (
          <p className="form-error" role="alert">
            {dateError}
          </p>
        ) : null}
        <label className="field">
          <span>Mulai Dari</span>
          <input type="date" name="dateFrom" min={FIRST_DAY} max={today} defaultValue={dateFromInput} />
        </label>
        <label className="field">
          <span>Sampai</span>
          <input type="date" name="dateTo" min={FIRST_DAY} max={today} defaultValue={dateToInput} />
        </label>
        <div className="sheet-actions">
          <Link to={transactionHref({ statusId: filters.statusId })} className="btn btn-outline">
            Atur Ulang
          </Link>
          <button type="submit" className="btn btn-primary">
            Atur Tanggal
          </button>
        </div>
      </Form>
    </Sheet>
  );
}
