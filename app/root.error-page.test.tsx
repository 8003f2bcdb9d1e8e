import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { expect, it } from "vitest";
import { ErrorBoundary } from "./root";

// Issue 20: the 500 page shows the request's id ('Kode kesalahan'), which the buyer can quote and
// which names the request's lines in the log (the root loader passes it on).
function errorPage(error: unknown, requestId: string | null) {
  const Stub = createRoutesStub([
    { id: "root", path: "/", Component: () => null, ErrorBoundary: ErrorBoundary as never, loader: () => null },
  ]);
  return renderToString(<Stub initialEntries={["/"]} hydrationData={{ loaderData: { root: { requestId } }, errors: { root: error } }} />);
}

it("shows the request's id on the 500 page", () => {
  const html = errorPage(new Error("database is gone"), "5b12cc93b4c11320");
  expect(html).toContain("Kesalahan Sistem!");
  expect(html).toContain("Kode kesalahan: <!-- -->5b12cc93b4c11320");
});

it("shows no code when there is none, and none on a 404", () => {
  expect(errorPage(new Error("x"), null)).not.toContain("Kode kesalahan");
  const notFound = errorPage({ status: 404, statusText: "Not Found", internal: true, data: "", __type: "RouteErrorResponse" }, "abc");
  expect(notFound).toContain("Page Not Found");
  expect(notFound).not.toContain("Kode kesalahan");
});
