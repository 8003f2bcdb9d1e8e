import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import PaymentScreen from "./payment";
import { GATEWAY_UNAVAILABLE } from "~/.server/store/payments";

// The payment page's Midtrans states (issue 18), rendered from loader data as the server renders
// them: a gateway failure at opening, Mandiri's two codes, and an open Snap page to go back to.
// (The whole flows run against a fake Midtrans in tests/e2e-midtrans/.)

type Props = Parameters<typeof PaymentScreen>[0];

function render(payment: Partial<Props["loaderData"]["payment"]>): string {
  const loaderData = {
    payment: {
      orderId: 7,
      invoiceId: "INV/20261125/000007",
      statusId: 200,
      statusName: "Menunggu Pembayaran",
      method: {
        id: 3,
        code: "MANDIRI-VA",
        name: "Mandiri Virtual Account",
        type: "virtual_account",
        imageUrl: "/images/payment/mandiri.svg",
      },
      tenor: null,
      vaNo: null,
      billerCode: null,
      openError: null,
      breakdown: null,
      totalAmount: 4_456_300,
      uniqueCode: null,
      expiredAt: new Date(Date.now() + 3600_000).toISOString(),
      expiredAtText: "25 Nov 2026 21:00 WIB",
      expired: false,
      marker: false,
      canMarkPaid: false,
      canSandboxPay: false,
      paid: false,
      manualInfoDetail: null,
      howTo: [],
      redirectUrl: null,
      ...payment,
    },
    now: new Date().toISOString(),
    sheet: null,
  } as Props["loaderData"];
  // A data router (the page uses navigation state), already holding the loader's data.
  const Stub = createRoutesStub([{ id: "payment", path: "/payment/:id", Component: PaymentScreen as never, loader: () => loaderData }]);
  return renderToStaticMarkup(<Stub initialEntries={["/payment/7"]} hydrationData={{ loaderData: { payment: loaderData } }} />);
}

describe("/payment/{id} with Midtrans", () => {
  it("says the gateway failed and offers to try again, with the order still payable", () => {
    const html = render({ openError: GATEWAY_UNAVAILABLE });
    expect(html).toContain(GATEWAY_UNAVAILABLE);
    expect(html).toContain('href="/payment/7"');
    expect(html).toContain("Coba Lagi");
    expect(html).not.toContain("Nomor Virtual Account");
  });

  it("shows Mandiri's 'Kode Perusahaan' and 'Kode Bayar' instead of one VA number", () => {
    const html = render({ vaNo: "912345000001", billerCode: "70012" });
    expect(html).toMatch(/Kode Perusahaan[\s\S]*value="70012"/);
    expect(html).toMatch(/Kode Bayar[\s\S]*value="912345000001"/);
    expect(html).not.toContain("Nomor Virtual Account");
  });

  it("offers 'Lanjutkan Pembayaran' to an open Snap page, only when it is a web address", () => {
    const snap = "https://app.sandbox.midtrans.com/snap/v2/vtweb/0d1e2f";
    const instalment = {
      statusId: 301,
      statusName: "Menunggu Persetujuan Cicilan",
      expiredAt: null,
      method: {
        id: 5,
        code: "BNI-INSTALLMENT",
        name: "Cicilan Kartu Kredit BNI",
        type: "installment" as const,
        imageUrl: "/images/payment/bni.svg",
      },
      tenor: 6,
    };
    expect(render({ ...instalment, redirectUrl: snap })).toContain(`href="${snap}"`);
    expect(render({ ...instalment, redirectUrl: snap })).toContain("Lanjutkan Pembayaran");
    expect(render({ ...instalment, redirectUrl: "javascript:alert(1)" })).not.toContain("Lanjutkan Pembayaran");
  });
});
