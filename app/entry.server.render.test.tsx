import { createRequestHandler, Outlet, Scripts, type ServerBuild } from "react-router";
import { expect, it } from "vitest";
import * as entry from "~/entry.server";

// A two-route build (a document and one page) rendered by the real entry.server, through React Router.
function Document() {
  return (
    <html lang="id">
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  );
}

const route = (id: string, extra: object) => ({
  id,
  module: `/${id}.js`,
  imports: [],
  hasLoader: false,
  hasAction: false,
  hasClientLoader: false,
  hasClientAction: false,
  hasErrorBoundary: false,
  ...extra,
});
const build = {
  entry: { module: entry },
  routes: {
    root: { id: "root", path: "", module: { default: Document } },
    page: { id: "page", parentId: "root", index: true, module: { default: () => <p>Beranda</p> } },
  },
  assets: {
    entry: { module: "/entry.js", imports: ["/react.js"] },
    routes: { root: route("root", { path: "" }), page: route("page", { parentId: "root", index: true }) },
    url: "/manifest.js",
    version: "1",
  },
  publicPath: "/",
  assetsBuildDirectory: "",
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
} as unknown as ServerBuild;

const handle = createRequestHandler(build, "production");
const pendingTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

it("leaves no timer behind once a page is rendered (each would keep its whole render alive for 6 s)", async () => {
  const before = pendingTimers();
  for (let i = 0; i < 20; i++) await (await handle(new Request("http://store.test/"))).text();
  expect(pendingTimers()).toBe(before);
});

it("sends React Router's scripts held until the page has loaded", async () => {
  const html = await (await handle(new Request("http://store.test/"))).text();
  expect(html).toContain("<p>Beranda</p>");
  expect(html).toContain('<template data-after-load="modulepreload"><link rel="modulepreload" href="/entry.js"');
  expect(html).toContain('type="text/plain" data-after-load="module"');
  // Every preload is inside its template, where it fetches nothing.
  expect(html.replace(/<template data-after-load="modulepreload">.*?<\/template>/g, "")).not.toContain('rel="modulepreload"');
  expect(html).not.toContain('type="module"');
});
