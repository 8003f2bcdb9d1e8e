import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

type ModuleInfo = { importedIds: readonly string[] } | null;

/**
 * The browser's chunks (decision 0047). Left to itself, Rollup gives every set of routes that shares
 * a module a chunk of its own: /home loaded 27 scripts, most under 2 KB, and on a slow line each
 * costs a round trip and the phone a task to compile it. Two groups load on every page anyway, so
 * each becomes one file: `framework` (React, React DOM, React Router) and `chrome` (the modules the
 * root and the layouts import: top bar, bottom tabs, icons, modal, toast…). What only some screens
 * use stays in Rollup's chunks, except what the home page imports (product card and grid, images,
 * prices, the swiper hook): one `catalogue` file, which another page that needs a piece of it (the
 * search results' grid, the checkout's prices) loads whole.
 */
function fewerClientChunks(): Plugin {
  const framework = /\/node_modules\/(react|react-dom|react-router|scheduler|cookie|set-cookie-parser)\//;
  const appModule = /\/app\/(components|lib|images|layouts)\//;
  const chromeRoots = /\/app\/(root\.tsx|layouts\/[^/]+\.tsx)(\?|$)/;
  // Small pieces of the buyer's forms that most screens use (a field, a sheet, the hydration flag):
  // with the chrome, not a request of their own on every form screen (issue 29).
  const chromeParts = /\/app\/components\/(sheet|use-hydrated)\.tsx?$|\/app\/styles\/[^/]+\.css\?url$/;
  // The form kit every validated form uses: the form library, the field components, the error
  // summary and the account screens' schema (the checkout shares it). Named, or Rollup pulls it into
  // the purchase file below and the login would load the checkout's parts. The schemas' library is a
  // file of its own: the payment page validates without the form library.
  const forms =
    /\/node_modules\/@conform-to\/[^/]+\/|\/app\/(lib\/forms\.ts|lib\/schemas\/account\.ts|components\/(field|checkbox-field|textarea-field|error-summary)\.tsx)$/;
  const catalogueRoots = /\/app\/routes\/home\.tsx(\?|$)/;
  // The buying screens (checkout, payment method, tenor, OTP, payment, address): what they share
  // beyond the chrome and the catalogue, in one file, never loaded by another screen's first load.
  const purchaseRoots = /\/app\/routes\/(checkout|paymentmethod|paymentmethodlist|tenorlist|otp|payment|address)\.tsx(\?|$)/;
  let chrome: Set<string> | undefined;
  let catalogue: Set<string> | undefined;
  let purchase: Set<string> | undefined;
  function reachable(roots: RegExp, moduleIds: Iterable<string>, infoOf: (id: string) => ModuleInfo) {
    const found = new Set<string>();
    const visit = (id: string) => {
      for (const imported of infoOf(id)?.importedIds ?? []) {
        if (!appModule.test(imported) || found.has(imported)) continue;
        found.add(imported);
        visit(imported);
      }
    };
    for (const id of moduleIds) if (roots.test(id)) visit(id);
    return found;
  }
  /** Modules reachable from `roots` that no route outside them imports (directly or through others). */
  function onlyFrom(roots: RegExp, moduleIds: string[], infoOf: (id: string) => ModuleInfo) {
    const mine = reachable(roots, moduleIds, infoOf);
    const others = reachable(
      /\/app\/routes\/.+\.tsx(\?|$)/,
      moduleIds.filter((id) => !roots.test(id) && !chromeRoots.test(id)),
      infoOf,
    );
    return new Set([...mine].filter((id) => !others.has(id)));
  }
  return {
    name: "store:fewer-client-chunks",
    configEnvironment(name) {
      if (name !== "client") return;
      return {
        build: {
          rollupOptions: {
            output: {
              manualChunks(id, { getModuleIds, getModuleInfo }) {
                if (framework.test(id)) return "framework";
                // Loaded after hydration, all together (use-swiper.ts): one file, not three.
                if (id.includes("/node_modules/swiper/")) return "swiper";
                if (chromeParts.test(id)) return "chrome";
                if (forms.test(id)) return "forms";
                if (id.includes("/node_modules/zod/")) return "zod";
                chrome ??= reachable(chromeRoots, getModuleIds(), getModuleInfo);
                catalogue ??= reachable(catalogueRoots, getModuleIds(), getModuleInfo);
                purchase ??= onlyFrom(purchaseRoots, [...getModuleIds()], getModuleInfo);
                if (chrome.has(id)) return "chrome";
                if (catalogue.has(id)) return "catalogue";
                // The buying screens' schemas (checkout, address) apart: the payment page, which
                // validates nothing, would load zod through them (issue 29).
                if (purchase.has(id))
                  return getModuleInfo(id)?.importedIds.some((imported) => imported.includes("/node_modules/zod/"))
                    ? "purchase-forms"
                    : "purchase";
                return undefined;
              },
            },
          },
        },
      };
    },
  };
}

export default defineConfig({
  plugins: [reactRouter(), fewerClientChunks()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  // SOURCEMAP=1 writes source maps, to read a browser profile by function names (decision 0047).
  build: { assetsInlineLimit: 0, sourcemap: !!process.env.SOURCEMAP },
  ssr: {
    // Native and Node-only packages stay external in the server bundle.
    external: ["@node-rs/argon2", "sharp", "@electric-sql/pglite", "postgres", "nodemailer", "idn-area-data"],
  },
});
