import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { readLatestEmail, test, uniqueEmail } from "./helpers";
import { newBuyer, registerBuyer } from "./helpers/purchase";
import { signedInStaff } from "./helpers/staff";

// Roster squatting (issue 45 item 11, decision 0069), with JavaScript on and off. A stranger who
// registered before the import with an employee's NIP and name asks on /konfirmasi-pegawai and
// waits for the HR operator; an employee whose roster entry carries a work e-mail registers and
// confirms from that mailbox; the 'pegawai' operator approves the stranger by mistake, releases the
// link ('Putuskan') and approves the real employee, who registered after the stranger asked.

test.describe.configure({ timeout: 300_000 });
// The registration form's limit counts per address: this spec's own.
test.use({ extraHTTPHeaders: { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } });

const WAITING = "Permintaan Anda menunggu konfirmasi petugas kepegawaian.";
const EMAIL_SENT = "Kami telah mengirim tautan konfirmasi ke email kantor Anda.";

/** The company and its roster, through the admin's screens (no store door makes a roster). */
async function companyWithRoster(admin: Page, before: (company: string) => Promise<void>, rows: (company: string) => string[]) {
  const company = `PT Uji Klaim ${randomInt(1e6, 9e6)}`;
  await admin.goto("/ops/settings");
  await admin.getByLabel("Perusahaan baru", { exact: true }).fill(company);
  await admin.getByRole("button", { name: "Tambah Perusahaan" }).click();
  await expect(admin.locator("#companies").getByTestId("settings-saved")).toContainText("Perusahaan ditambahkan.");
  await before(company);
  await admin.goto("/ops/employees");
  await admin.getByLabel("File CSV", { exact: true }).setInputFiles({
    name: "pegawai.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(["nip;nama;perusahaan;status;email_kantor", ...rows(company)].join("\n")),
  });
  await admin.getByRole("button", { name: "Unggah CSV" }).click();
  await admin.getByRole("button", { name: "Terapkan Impor" }).click();
  await expect(admin.getByTestId("toast")).toContainText("Impor diterapkan:");
  return company;
}

test("a roster link needs the work e-mail or the HR operator; a wrong link is released", async ({ page, browser, javaScriptEnabled }) => {
  const admin = await signedInStaff(browser, javaScriptEnabled);
  const nip = `71${randomInt(1e7, 9e7)}`;
  const mailedNip = `72${randomInt(1e7, 9e7)}`;
  const work = uniqueEmail("kantor");
  let stranger = "";
  const strangerPage = await (await browser.newContext({ javaScriptEnabled })).newPage();
  const company = await companyWithRoster(
    admin,
    // Before the roster: a stranger registers with the employee's NIP and name (newBuyer names every account 'Rina Wulandari').
    async (name) => void ({ email: stranger } = await newBuyer(strangerPage, { company: name, nip })),
    (name) => [`${nip};Rina Wulandari;${name};aktif;`, `${mailedNip};Rina Wulandari;${name};aktif;${work}`],
  );
  await admin.context().close();

  // The stranger's 'Ya, Hubungkan' only asks: the page says the HR operator confirms.
  await strangerPage.goto("/konfirmasi-pegawai");
  await expect(strangerPage.getByTestId("employee-confirm")).toContainText(nip);
  await strangerPage.getByRole("button", { name: "Ya, Hubungkan" }).click();
  await expect(strangerPage.getByTestId("employee-confirm-waiting")).toContainText(WAITING);
  await strangerPage.context().close();

  // The real employee registers afterwards (not refused) and waits for the operator too.
  const employeeContext = await browser.newContext({ javaScriptEnabled });
  const { email: employee } = await newBuyer(await employeeContext.newPage(), { company, nip });
  await employeeContext.close();

  // An employee whose entry has a work e-mail: the registration says where the link went; opening it links.
  await registerBuyer(page, { company, nip: mailedNip, activate: false });
  await expect(page.getByTestId("toast")).toContainText(EMAIL_SENT);
  const mail = await readLatestEmail(page, work, { subject: "Konfirmasi Data Pegawai di Toko Pegawai PLN" });
  await page.goto(mail.link!);
  await expect(page.getByTestId("employee-confirm-email")).toContainText(mailedNip);
  await page.getByRole("button", { name: "Ya, Hubungkan" }).click();
  await expect(page.getByTestId("employee-confirm-email")).toContainText("Akun berhasil terhubung dengan data pegawai.");

  // The 'pegawai' operator's queue: the stranger approved by mistake, released, the employee approved.
  const hr = await signedInStaff(browser, javaScriptEnabled, ["pegawai"]);
  await hr.goto("/ops/employees");
  await hr.getByRole("link", { name: "Permintaan hubungkan akun ›" }).click();
  await expect(hr).toHaveURL("/ops/employees/requests");
  // A request by the account that asks (another request may name it as the entry's holder).
  const request = (email: string) =>
    hr.getByTestId("link-request").filter({ has: hr.getByTestId("request-account").filter({ hasText: email }) });
  await expect(request(stranger)).toContainText("Menunggu konfirmasi petugas");
  await request(stranger)
    .getByRole("button", { name: `Setujui ${stranger}` })
    .click();
  await expect(hr.getByTestId("toast")).toContainText("Akun dihubungkan.");
  await expect(request(stranger)).toHaveCount(0);
  await expect(request(employee).getByTestId("held-by")).toContainText(stranger);
  await request(employee)
    .getByRole("button", { name: `Putuskan ${stranger}` })
    .click();
  await expect(hr.getByTestId("toast")).toContainText("Akun diputus dari data pegawai.");
  await expect(request(employee).getByTestId("held-by")).toHaveCount(0);
  await request(employee)
    .getByRole("button", { name: `Setujui ${employee}` })
    .click();
  await expect(hr.getByTestId("toast")).toContainText("Akun dihubungkan.");
  await expect(request(employee)).toHaveCount(0);

  // The roster shows the employee's account on her entry.
  await hr.goto(`/ops/employees?q=${nip}`);
  await hr.getByLabel("Perusahaan", { exact: true }).selectOption({ label: `${company} (2 aktif, 0 nonaktif)` });
  await hr.getByRole("button", { name: "Tampilkan" }).click();
  await expect(hr.getByTestId("roster-row").filter({ hasText: nip })).toContainText(employee);
  await hr.context().close();
});
