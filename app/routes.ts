import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

// The spec's route table (§2), one line per route, grouped by layout. Routes under
// layouts/guard.tsx need a signed-in user (guard rule: anonymous → /authrequired?redirect=…).
export default [
  index("routes/index.tsx"),
  route("auth", "routes/auth.tsx"),
  route("healthz", "routes/healthz.ts"),
  route("logout", "routes/logout.ts"),
  route("resend-verification", "routes/resend-verification.ts"),
  route("verify-account", "routes/verify-account.ts"),
  route("outbox", "routes/outbox.tsx"),
  route("media/:file", "routes/media.ts"),
  // Operators' catalogue pictures, from the database (issue 26).
  route("catalogue-images/:file", "routes/catalogue-images.ts"),
  // Owner-only files: answers 404 (not the login redirect) to anyone else, anonymous included.
  route("uploads/:id", "routes/uploads.ts"),
  // 'Unduh Data Saya': the owner's ZIP (24 h); anonymous → sign in and come back (decision 0059).
  route("profile/data-saya/:id", "routes/data-export.ts"),
  // The payment gateway's signed settlements (JSON; no session, no Origin check: the HMAC signs it).
  route("webhooks/payment", "routes/webhooks-payment.ts"),
  route("webhooks/midtrans", "routes/webhooks-midtrans.ts"),

  // The JSON API of spec §7 under /api/core/api/v1, its OpenAPI document and reference page (issue
  // 19): one resource route; bearer tokens, no cookies, no Origin check (app/.server/http/api.ts).
  route("api/*", "routes/api/index.ts"),

  // The e2e tests' preconditions (issue 44, decision 0066): 404 unless the server runs with STORE_TEST_DOOR=1.
  route("__test/account", "routes/test-preconditions.ts"),
  route("__test/order", "routes/test-order.ts"),

  layout("layouts/main.tsx", [route("home", "routes/home.tsx")]),

  layout("layouts/search.tsx", [route("search", "routes/search.tsx"), route("res-search", "routes/res-search.tsx")]),

  layout("layouts/store.tsx", [route("detail/:id", "routes/detail.tsx")]),

  layout("layouts/auth.tsx", [
    route("login", "routes/login.tsx"),
    route("register", "routes/register.tsx"),
    route("send-email", "routes/send-email.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
  ]),

  layout("layouts/default.tsx", [
    route("authrequired", "routes/authrequired.tsx"),
    route("system-error", "routes/system-error.tsx"),
    route("kebijakan-privasi", "routes/privacy-policy.tsx"),
    // The work e-mail's link to a roster entry (decision 0069): no sign-in, the mailbox is the proof.
    route("konfirmasi-pegawai/email", "routes/employee-confirm-email.tsx"),
  ]),

  layout("layouts/guard.tsx", [
    layout("layouts/default.tsx", { id: "layouts/default-guarded" }, [
      route("checkout", "routes/checkout.tsx"),
      route("address", "routes/address.tsx"),
      route("paymentmethod", "routes/paymentmethod.tsx"),
      route("paymentmethodlist", "routes/paymentmethodlist.tsx"),
      route("tenorlist", "routes/tenorlist.tsx"),
      route("otp", "routes/otp.tsx"),
      route("history-balance", "routes/history-balance.tsx"),
      route("edit-profile", "routes/edit-profile.tsx"),
      route("payment/:id", "routes/payment.tsx"),
      route("transaction-done", "routes/transaction-done.tsx"),
      route("notifikasi", "routes/notifikasi.tsx"),
      route("konfirmasi-pegawai", "routes/employee-confirm.tsx"),
    ]),
    // The address pickers' options for a fetcher (resource route, JSON).
    route("address/areas", "routes/address-areas.ts"),
    layout("layouts/transaction.tsx", [route("transaction", "routes/transaction.tsx")]),
    layout("layouts/transaction-detail.tsx", [route("transaction-detail/:id", "routes/transaction-detail.tsx")]),
    layout("layouts/invoice.tsx", [route("transaction-invoice/:id", "routes/transaction-invoice.tsx")]),
    layout("layouts/profile.tsx", [route("profile", "routes/profile.tsx")]),
  ]),

  // The operators' back office (issue 17): its own layout, whose middleware answers 404 to anyone
  // without the operator role and sends an operator to /ops/2fa until the second factor is passed.
  layout("routes/ops/layout.tsx", [
    route("ops", "routes/ops/queues.tsx"),
    route("ops/2fa", "routes/ops/second-factor.tsx"),
    route("ops/queue/:queue", "routes/ops/queue.tsx"),
    route("ops/orders/:id", "routes/ops/order.tsx"),
    route("ops/orders/:id/ktp", "routes/ops/order-ktp.ts"),
    route("ops/withdrawals", "routes/ops/withdrawals.tsx"),
    route("ops/refunds", "routes/ops/refunds.tsx"),
    route("ops/refunds/export", "routes/ops/refunds-export.ts"),
    route("ops/finance", "routes/ops/finance.tsx"),
    route("ops/messages", "routes/ops/messages.tsx"),
    route("ops/search", "routes/ops/search.tsx"),
    route("ops/export", "routes/ops/export.ts"),
    // The catalogue (issue 26), for the 'katalog' role.
    route("ops/catalogue", "routes/ops/catalogue/index.ts"),
    route("ops/catalogue/products", "routes/ops/catalogue/products.tsx"),
    route("ops/catalogue/products/:id", "routes/ops/catalogue/product.tsx"),
    route("ops/catalogue/products/:id/photos", "routes/ops/catalogue/product-photos.ts"),
    route("ops/catalogue/promos", "routes/ops/catalogue/promos.tsx"),
    route("ops/catalogue/banners", "routes/ops/catalogue/banners.tsx"),
    route("ops/catalogue/categories", "routes/ops/catalogue/categories.tsx"),
    route("ops/catalogue/import", "routes/ops/catalogue/import.tsx"),
    route("ops/catalogue/photo-zip", "routes/ops/catalogue/photo-zip.tsx"),
    route("ops/catalogue/export", "routes/ops/catalogue/export.ts"),
    // Issue 27: the roster and buyer accounts ('Pegawai'), staff and settings ('Admin').
    route("ops/employees", "routes/ops/employees/roster.tsx"),
    route("ops/employees/requests", "routes/ops/employees/link-requests.tsx"),
    route("ops/accounts", "routes/ops/employees/accounts.tsx"),
    route("ops/staff", "routes/ops/staff.tsx"),
    route("ops/settings", "routes/ops/settings.tsx"),
    route("ops/privacy", "routes/ops/privacy.tsx"),
    route("ops/privacy/export", "routes/ops/privacy-export.ts"),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
