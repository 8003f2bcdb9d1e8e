import { API_PREFIX } from "~/.server/http/api";
import { API_AREAS, API_VERSION, bodySchema } from "./openapi.server";

// GET /api/core/docs: the API reference as one plain HTML page (no JavaScript), from the same
// definitions as /api/core/openapi.json (routes/api/index.ts serves it).

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const code = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;

function page(): string {
  const sections = API_AREAS.map((area) => {
    const calls = Object.entries(area.routes).map(([sub, route]) => {
      const doc = route.doc;
      const path = `${API_PREFIX}/${area.area}${sub}`;
      const id = `${area.area}${sub}`.replace(/[^a-z0-9]+/gi, "-");
      const query = Object.entries(doc.query ?? {});
      const body = bodySchema(doc.body);
      return `<section id="${id}"><h3><code>${route.method} ${escape(path)}</code></h3>
<p>${escape(doc.summary)}${route.auth ? " <strong>(token)</strong>" : ""}</p>
${doc.description ? `<p>${escape(doc.description)}</p>` : ""}
${query.length ? `<table><tr><th>Parameter</th><th>Type</th><th>Meaning</th></tr>${query.map(([name, q]) => `<tr><td><code>${escape(name)}</code>${q.required ? " *" : ""}</td><td>${q.type}</td><td>${escape(q.description)}</td></tr>`).join("")}</table>` : ""}
${
  doc.headers
    ? `<p>Headers: ${Object.entries(doc.headers)
        .map(([name, meaning]) => `<code>${escape(name)}</code> — ${escape(meaning)}`)
        .join("; ")}</p>`
    : ""
}
${body ? `<details><summary>Body (${doc.bodyType === "multipart" ? "multipart/form-data" : "JSON"})</summary>${code(body)}</details>` : ""}
${doc.data ? `<details><summary><code>data</code> on success</summary>${code(doc.data)}</details>` : ""}
<p>Errors: ${[...(doc.errors ?? []), ...(route.auth ? [401] : [])].join(", ") || "—"}</p></section>`;
    });
    return `<h2 id="${area.area}">${escape(area.area)}</h2>${calls.join("\n")}`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API reference · Toko Pegawai PLN</title>
<style>body{font-family:system-ui,Arial,sans-serif;color:#1f2937;max-width:960px;margin:24px auto;padding:0 16px;line-height:1.5}pre{background:#f3f4f6;padding:8px;overflow:auto;font-size:13px}table{border-collapse:collapse}td,th{border:1px solid #d1d5db;padding:4px 8px;text-align:left}section{border-top:1px solid #e5e7eb;padding-top:8px}h3 code{font-size:16px}</style></head>
<body><main><h1>Toko Pegawai PLN API ${API_VERSION}</h1>
<p>Base: <code>${API_PREFIX}</code>. Machine-readable: <a href="/api/core/openapi.json">OpenAPI 3.1</a>.</p>
<p>Every answer is <code>{ "success", "code", "message", "data" }</code>; a 400 adds <code>errors</code> (field → the form's Indonesian messages). Lists that page answer <code>{ content, total, page, isLastPage }</code>, page from 0. Sign in with <code>POST /auth/login</code> and send <code>Authorization: Bearer &lt;token&gt;</code> (30 days; revoked by <code>/auth/logout</code> and a password reset). 401: the token is missing, expired or revoked — sign in again. 404: unknown, or not yours. 429: wait <code>Retry-After</code> seconds. No cookies; browsers may call it only from the origins in <code>API_CORS_ORIGINS</code>.</p>
<nav><p>${API_AREAS.map((a) => `<a href="#${a.area}">${a.area}</a>`).join(" · ")}</p></nav>
${sections.join("\n")}</main></body></html>`;
}

export function docsResponse() {
  return new Response(page(), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-cache",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  });
}
