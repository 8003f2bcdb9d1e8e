import { Link } from "react-router";
import type { Route } from "./+types/transaction-done";
import { requireUser } from "~/.server/http/auth";
import { getCreditedReward } from "~/.server/store/orders";
import { listProducts } from "~/.server/store/catalogue";
import { getOwnedOrderDetail } from "~/.server/store/orders";
import { ProductCard } from "~/components/product-card";
import { Sheet } from "~/components/sheet";
import { formatRupiah } from "~/lib/money";
import { ORDER_STATUS } from "~/lib/order-status";
import type { RouteHandle } from "~/lib/route-handle";
import ordersStylesUrl from "~/styles/orders.css?url";
import { parseId } from "~/lib/ids";
export const handle: RouteHandle = { title: "Pesanan Selesai", back: "/transaction" };

// The order screens' styles load only on these screens.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/** Spec §9: the done page suggests 7 products. */
const SUGGESTIONS = 7;

/**
 * Spec §2 Transaction done: 'Pesanan Selesai!', a button home and 7 suggested products. After
 * 'Konfirmasi' the address names the order (`?order=id`): the reward confirmDelivery credited
 * (under the rule the order was made with) shows in a sheet over the page, for its owner only.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const raw = url.searchParams.get("order") ?? "";
  const orderId = parseId(raw);
  const order = orderId ? await getOwnedOrderDetail(orderId, user.id) : null;
  // The reward the order was credited (its own rule, issue 38), read back from the balance.
  const reward = order?.statusId === ORDER_STATUS.DONE ? await getCreditedReward(order.id, user.id) : null;
  const page = await listProducts({ page: 0, size: SUGGESTIONS });
  return { reward, suggestions: page.content };
}

export default function TransactionDone({ loaderData }: Route.ComponentProps) {
  const { reward, suggestions } = loaderData;
  return (
    <>
      <section className="empty-state done-state" data-testid="transaction-done">
        <div className="done-mark" aria-hidden="true">
          ✓
        </div>
        <h2>Pesanan Selesai!</h2>
        <p className="muted">Terima kasih telah berbelanja di Toko Pegawai PLN.</p>
        <Link to="/home" className="btn btn-primary">
          Kembali ke Beranda
        </Link>
      </section>
      {suggestions.length ? (
        <section aria-labelledby="suggestions-heading">
          <h2 id="suggestions-heading" className="section-title">
            Produk Lainnya
          </h2>
          <ul className="product-grid" data-testid="suggestions">
            {suggestions.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </ul>
        </section>
      ) : null}
      {reward ? (
        <Sheet title={reward.title} closeHref="/transaction-done" height="auto">
          <div className="reward-sheet" data-testid="reward-sheet">
            <p className="reward-amount">+{formatRupiah(reward.amount)}</p>
            <p>{reward.description}</p>
            <Link to="/history-balance" className="btn btn-primary btn-block">
              Cek Saldo
            </Link>
            <Link to="/home" className="btn btn-outline btn-block">
              Kembali ke Beranda
            </Link>
          </div>
        </Sheet>
      ) : null}
    </>
  );
}
