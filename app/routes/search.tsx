import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/search";
import { readForm } from "~/.server/http/request";
import { clearVisitorSearchHistory, loadSearchHistory } from "~/.server/http/search-history-cookie";
import { svg } from "~/components/icons";
import { SearchField } from "~/components/search-field";
import { SubmitButton } from "~/components/submit-button";
import type { RouteHandle } from "~/lib/route-handle";
import { normaliseKeyword, resultsHref } from "~/lib/search-params";

export const handle: RouteHandle = { title: "Pencarian" };

/**
 * Spec §2 search entry: the field (prefilled with `?keyword=` when the user comes back from the
 * results to change the search) and 'Riwayat Pencarian', the latest 5 keywords, newest first.
 * Keywords are recorded by /res-search, where a submitted search lands.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const keyword = normaliseKeyword(url.searchParams.get("keyword"));
  const { history, headers } = await loadSearchHistory({ request, context });
  return data({ keyword, history }, { headers });
}

/** 'Hapus Semua' (intent clear-history): empties the history, then back here (Post/Redirect/Get). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form.get("intent") !== "clear-history") return data({ error: "Permintaan tidak dikenal." }, { status: 400 });
  const headers = await clearVisitorSearchHistory({ request, context });
  return redirect("/search", { headers });
}

export default function Search({ loaderData, actionData }: Route.ComponentProps) {
  const { keyword, history } = loaderData;
  return (
    <>
      <SearchField defaultValue={keyword} />
      <main className="page search-page">
        <h1 className="sr-only">Pencarian</h1>
        {actionData?.error ? (
          <p className="form-error" role="alert">
            {actionData.error}
          </p>
        ) : null}
        <section className="search-history" aria-labelledby="search-history-title">
          <div className="search-history-head">
            <h2 id="search-history-title">Riwayat Pencarian</h2>
            {history.length ? (
              <Form method="post">
                <input type="hidden" name="intent" value="clear-history" />
                <SubmitButton className="link-button">Hapus Semua</SubmitButton>
              </Form>
            ) : null}
          </div>
          {history.length ? (
            <ul className="search-history-list" data-testid="search-history">
              {history.map((entry) => (
                <li key={entry.toLowerCase()}>
                  <Link to={resultsHref({ keyword: entry, categories: [] })} className="search-history-item">
                    <ClockIcon />
                    <span>{entry}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Belum ada riwayat pencarian.</p>
          )}
        </section>
      </main>
    </>
  );
}

const ClockIcon = () =>
  svg(
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </>,
    { size: 18 },
  );
