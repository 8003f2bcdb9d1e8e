import { data } from "react-router";
import type { Route } from "./+types/outbox";
import { isLoopbackRequest } from "~/.server/http/request";
import { mayReadOutbox, readOutbox } from "~/.server/store/messages";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Kotak Keluar Email" };

/**
 * The outbox: without SMTP_URL, e-mails are kept on disk and listed here so that `npm start` alone
 * lets a person register and verify — the demo, and a real store's admin until mail is set up
 * (decision 0058). It holds working links of every account, so it exists only while there is no
 * SMTP_URL, and only for this machine or the key in the server's log (decision 0005); to anyone
 * else it does not exist (404).
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  if (!mayReadOutbox(url, isLoopbackRequest(request))) throw data("Not Found", { status: 404 });
  const messages = await readOutbox(30);
  return { messages: messages.map(({ id, to, subject, text, sentAt }) => ({ id, to, subject, text, sentAt })) };
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  return (
    <div className="app-shell">
      <main className="page">
        <h1>Kotak Keluar Email</h1>
        <p className="muted">Email yang dikirim toko ini ketika SMTP belum diatur. Terbaru di atas.</p>
        {loaderData.messages.length === 0 ? <p>Belum ada email.</p> : null}
        {loaderData.messages.map((m) => (
          <article key={m.id} className="card outbox-message" data-testid="outbox-message">
            <p className="muted">
              Kepada: <span data-testid="outbox-to">{m.to}</span> ·{" "}
              {new Date(m.sentAt).toLocaleString("id-ID", { timeZone: "Asia/Jakarta" })} WIB
            </p>
            <h2>{m.subject}</h2>
            <Linkified text={m.text} />
          </article>
        ))}
      </main>
    </div>
  );
}

/** Shows the e-mail text with its http(s) links clickable. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <pre className="outbox-text">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} rel="noopener noreferrer">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}
