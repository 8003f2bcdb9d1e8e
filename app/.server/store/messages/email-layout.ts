import { env } from "../../env";
import { formatRupiah } from "~/lib/money";
import type { MailMessage } from "./mail";

// The one layout of every e-mail the store sends (issue 28 item 6): the store's logo, a greeting,
// a few lines, the order's items with their amounts in rupiah when there is an order, one button,
// a footer; and the same in plain text for clients that show no HTML. Inline styles and a table
// layout: what mail clients render alike.

export type EmailContent = {
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  /** The order's items and what is asked or paid, when the e-mail is about an order. */
  order?: { invoiceId: string; items: { title: string; qty: number; amount: number }[]; total: { label: string; amount: number } };
  button: { label: string; link: string };
  footer: string;
};

export const STORE_NAME = "Toko Pegawai PLN";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderEmail(content: EmailContent): MailMessage {
  return { to: content.to, subject: content.subject, text: plainText(content), html: html(content) };
}

function plainText(c: EmailContent): string {
  const order = c.order
    ? [
        `Pesanan ${c.order.invoiceId}`,
        ...c.order.items.map((item) => `- ${item.title} (${item.qty}x): ${formatRupiah(item.amount)}`),
        `${c.order.total.label}: ${formatRupiah(c.order.total.amount)}`,
        "",
      ]
    : [];
  return [c.greeting, "", ...c.lines, "", ...order, `${c.button.label}: ${c.button.link}`, "", c.footer, "", STORE_NAME].join("\n");
}

function html(c: EmailContent): string {
  const logo = `${env().appUrl}/images/email-logo.png`;
  const cell = "padding:8px 0;border-bottom:1px solid #e5e7eb";
  const order = c.order
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:16px 0">
<tr><td colspan="2" style="${cell};font-weight:bold">Pesanan ${escapeHtml(c.order.invoiceId)}</td></tr>
${c.order.items.map((item) => `<tr><td style="${cell}">${escapeHtml(item.title)} (${item.qty}x)</td><td align="right" style="${cell};white-space:nowrap">${escapeHtml(formatRupiah(item.amount))}</td></tr>`).join("\n")}
<tr><td style="padding:8px 0;font-weight:bold">${escapeHtml(c.order.total.label)}</td><td align="right" style="padding:8px 0;font-weight:bold;white-space:nowrap">${escapeHtml(formatRupiah(c.order.total.amount))}</td></tr>
</table>`
    : "";
  return `<!doctype html><html lang="id"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:Arial,sans-serif;color:#1f2937">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 24px;border-bottom:3px solid #0e7bbf"><img src="${escapeHtml(logo)}" width="132" height="34" alt="${STORE_NAME}" style="display:block;border:0"></td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">
<p style="margin:0 0 12px">${escapeHtml(c.greeting)}</p>
${c.lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join("\n")}
${order}
<p style="margin:20px 0"><a href="${escapeHtml(c.button.link)}" style="display:inline-block;background:#0e7bbf;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(c.button.label)}</a></p>
<p style="margin:0 0 12px;font-size:12px;color:#6b7280">Jika tombol tidak berfungsi, salin tautan ini ke peramban Anda: ${escapeHtml(c.button.link)}</p>
<p style="margin:0;font-size:12px;color:#6b7280">${escapeHtml(c.footer)}</p>
</td></tr>
<tr><td style="padding:12px 24px;font-size:12px;color:#6b7280;border-top:1px solid #e5e7eb">${STORE_NAME}</td></tr>
</table></td></tr></table></body></html>`;
}
