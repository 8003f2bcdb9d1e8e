// ESLint (issue 34 item 1): typescript-eslint, react-hooks and jsx-a11y recommended, and the code's
// boundaries (scripts/lint/boundaries.mjs). `npm run lint` runs this and `prettier --check .`; it is a
// step of `npm test`. A rule the code cannot meet is turned off HERE with the reason, never with
// eslint-disable comments in the code.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import storeBoundaries, { STORE_TRANSPORT_RULES } from "./scripts/lint/boundaries.mjs";

export default defineConfig(
  globalIgnores([
    "node_modules/",
    ".node/",
    "build/",
    "build-*/",
    ".react-router/",
    "data/",
    "test-results/",
    "playwright-report/",
    "test-reports/",
    "public/",
    "app/.server/db/migrations/",
    // A bare React Router app the size bench builds for comparison (its own build output included).
    "scripts/bench/minimal-app/",
  ]),
  js.configs.recommended,
  // Not the type-checked set: its rules need the whole TypeScript program (what `tsc` builds), which
  // more than doubles the lint's time (issue 34: ~35 s of CPU without it on the whole tree; with
  // no-floating-promises and no-misused-promises on app/ alone it had not finished after 8 minutes on
  // the shared 2-core machine). `npm run typecheck` already runs tsc in strict mode.
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names are deliberately unused (a handler's `_loadContext`, a destructured field left out).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Every module of the app that may hold a hook (issue 46: app/lib/ too: useSchemaForm, nonce.ts); not
    // the server, whose code has none, nor tests. The Playwright fixtures' `use` and the benches'
    // `useTemporaryPglite` (outside app/) are not hooks.
    files: ["app/**/*.tsx", "app/**/*.ts"],
    ignores: ["app/.server/**", "app/**/*.test.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // The pages render on the server first (and must work without JavaScript), then adopt in an
      // effect what only the browser knows after hydration: the clock (countdown.tsx), the form state
      // the browser restored (checkout.tsx), a toast or a page of results a navigation brought. Setting
      // state there is the point, and the React Compiler this rule prepares for is not used here.
      "react-hooks/set-state-in-effect": "off",
    },
  },
  {
    // PageOutlet records, while it renders, that the page's own part will set the hydration mark
    // (root.tsx sets it for documents without one): a module flag read in the same render pass,
    // which is what this rule forbids in general.
    files: ["app/components/page-outlet.tsx"],
    rules: { "react-hooks/globals": "off" },
  },
  {
    // The checkout's draft saver keeps the latest fetcher.submit in a ref assigned during render (so
    // the debounced save never calls a stale submit) and hands the form its ref and change handler
    // through one object; its effects run once per mount on purpose (flush on leaving the page).
    files: ["app/components/use-draft-saver.ts", "app/components/checkout-form.tsx"],
    rules: { "react-hooks/refs": "off", "react-hooks/exhaustive-deps": "off" },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // autoFocus is used where it helps: the search page's field (the page exists to type in it) and a
      // form re-rendered by the server with an error (the first invalid field, DESIGN: no-JS forms).
      "jsx-a11y/no-autofocus": "off",
      // The label's text sits in nested spans (name, badge, price) of the payment and tenor options;
      // the default depth (2) stops before it.
      "jsx-a11y/label-has-associated-control": ["error", { depth: 5 }],
    },
  },
  {
    // The sliders' horizontally scrolling lists, and /ops/finance's wide tables on a phone, take focus
    // so a keyboard can scroll them (axe: scrollable-region-focusable); each carries an aria-label
    // naming what scrolls. (A <section> with a name is a region, but this rule does not know it, and
    // html-validate refuses the redundant role="region" that would satisfy it.)
    files: ["app/components/banner-carousel.tsx", "app/components/image-slider.tsx", "app/routes/ops/finance.tsx"],
    rules: { "jsx-a11y/no-noninteractive-tabindex": "off" },
  },
  {
    // The keyword cleaner replaces control characters on purpose.
    files: ["app/lib/search-params.ts"],
    rules: { "no-control-regex": "off" },
  },
  {
    // The API tests read any field of an answer's `data`; a wrong field fails the test's assertion.
    files: ["app/.server/testing/api-client.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter's pattern: `async ({}, use)` is required.
    files: ["tests/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    plugins: { store: storeBoundaries },
    rules: { "store/boundaries": "error" },
  },
  {
    // Tests are looser on the boundaries: a domain's tests exercise its inner modules directly, and the
    // parity and IDOR tests drive the buyer pages, the back office and the API side by side.
    files: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "store/boundaries": "off" },
  },
  {
    // The store takes typed commands, never a transport (boundaries.mjs rule 4): its tests too build
    // typed input, as the doors do.
    files: ["app/.server/store/**/*.ts"],
    rules: STORE_TRANSPORT_RULES,
  },
);
