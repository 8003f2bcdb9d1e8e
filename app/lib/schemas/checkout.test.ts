import { describe, expect, it } from "vitest";
import { parseForm, readFields } from "~/lib/forms";
import { checkValues } from "./check";
import { addressSchema, type CheckoutContext, checkoutFieldsSchema, checkoutSchema } from "./checkout";

// Every message of spec §5 Checkout (and the address form), as the action and the browser see them.

function form(fields: Record<string, string | File>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const everythingOnFile: CheckoutContext = { ktpOnFile: true, addressOnFile: true, hasIncentive: true, hasEmployeePromo: true };

function errorsOf(fields: Record<string, string | File>, context: CheckoutContext = everythingOnFile) {
  const submission = parseForm(form(fields), checkoutSchema(context));
  return submission.status === "success" ? {} : (submission.error ?? {});
}

const valid = {
  buyerName: "Siti Rahma",
  buyerPhoneNumber: "081234567890",
  buyerEmail: "siti@pln.co.id",
  buyerNik: "3273010101900001",
  bbnValidation: "on",
  domisiliValidation: "on",
};

const jpeg = (name = "ktp.jpg") => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], name, { type: "image/jpeg" });
// What a browser posts for a file input left empty.
const noFile = () => new File([], "", { type: "application/octet-stream" });

describe("checkout form", () => {
  it("reads the web form and the API's JSON into the same typed fields, which the store's rules judge as the form", () => {
    // Issue 46 item 1: each door reads its transport with checkoutFieldsSchema; the store gets these fields.
    const fromForm = readFields(
      form({ ...valid, insentif: "on", buyerDadName: "Ahmad", ktp: jpeg(), intent: "submit" }),
      checkoutFieldsSchema,
    );
    const fromJson = checkoutFieldsSchema.parse({
      ...valid,
      buyerNik: 3273010101900001,
      insentif: true,
      nikValidation: false,
      bbnValidation: true,
      domisiliValidation: true,
      buyerDadName: "Ahmad",
      ajukanInsentifPegawai: null,
      address: { kodePos: "40111" },
    });
    expect(fromJson).toEqual(fromForm);
    expect(fromForm).toEqual({
      note: "",
      buyerName: "Siti Rahma",
      buyerPhoneNumber: "081234567890",
      buyerEmail: "siti@pln.co.id",
      buyerNik: "3273010101900001",
      buyerNip: "",
      buyerDadName: "Ahmad",
      insentif: true,
      nikValidation: false,
      ajukanInsentifPegawai: false,
      bbnValidation: true,
      domisiliValidation: true,
    });
    // The same messages for the typed fields as for the posted form (what the browser shows on blur).
    const nothing = { ktpOnFile: false, addressOnFile: false, hasIncentive: true, hasEmployeePromo: false };
    const typed = checkValues(checkoutSchema(nothing), checkoutFieldsSchema.parse({ insentif: true }));
    expect(typed.success).toBe(false);
    if (!typed.success) expect(typed.error).toEqual(errorsOf({ insentif: "on" }, nothing));
    expect(checkValues(checkoutSchema(everythingOnFile), fromForm)).toEqual({
      success: false,
      error: { nikValidation: ["Mohon ceklis keterangan diatas"] },
    });
    expect(checkValues(checkoutSchema(everythingOnFile), { ...fromForm, nikValidation: true })).toMatchObject({
      success: true,
      value: { insentif: true, bbnValidation: true },
    });
  });

  it("accepts a complete form and gives booleans for the boxes", () => {
    const submission = parseForm(form({ ...valid, note: "  Kirim pagi  " }), checkoutSchema(everythingOnFile));
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      note: "Kirim pagi",
      insentif: false,
      nikValidation: false,
      ajukanInsentifPegawai: false,
      buyerNik: "3273010101900001",
    });
  });

  it("asks for every required field of an empty form", () => {
    expect(errorsOf({}, { ktpOnFile: false, addressOnFile: false, hasIncentive: false, hasEmployeePromo: false })).toEqual({
      buyerName: ["Nama Pembeli tidak boleh kosong."],
      buyerPhoneNumber: ["No. HP tidak boleh kosong."],
      buyerEmail: ["Email tidak boleh kosong."],
      buyerNik: ["NIK tidak boleh kosong."],
      ktp: ["File KTP tidak boleh kosong."],
      address: ["Alamat tidak boleh kosong."],
      bbnValidation: ["Mohon ceklis keterangan diatas"],
      domisiliValidation: ["Mohon ceklis keterangan diatas"],
    });
  });

  it("checks the phone: numeric, at most 14, at least 11; separators are dropped", () => {
    expect(errorsOf({ ...valid, buyerPhoneNumber: "0812abc45678" }).buyerPhoneNumber?.[0]).toBe("No. HP harus numeric.");
    expect(errorsOf({ ...valid, buyerPhoneNumber: "081234567890123" })).toEqual({ buyerPhoneNumber: ["No. HP maksimal 14 karakter."] });
    expect(errorsOf({ ...valid, buyerPhoneNumber: "0812345678" })).toEqual({ buyerPhoneNumber: ["No. HP minimal 11 karakter."] });
    const submission = parseForm(form({ ...valid, buyerPhoneNumber: "0812-3456-7890" }), checkoutSchema(everythingOnFile));
    expect(submission.status === "success" && submission.value.buyerPhoneNumber).toBe("081234567890");
  });

  it("checks the e-mail", () => {
    expect(errorsOf({ ...valid, buyerEmail: "siti@" })).toEqual({ buyerEmail: ["Email tidak valid."] });
  });

  it("wants a NIK of exactly 16 digits", () => {
    expect(errorsOf({ ...valid, buyerNik: "32730101019000011" })).toEqual({ buyerNik: ["NIK maksimal 16 karakter."] });
    expect(errorsOf({ ...valid, buyerNik: "327301010190000" })).toEqual({ buyerNik: ["NIK minimal 16 karakter."] });
    expect(errorsOf({ ...valid, buyerNik: "32730101019000AB" })).toEqual({ buyerNik: ["NIK harus numeric."] });
  });

  it("wants a KTP photo unless one is on file, and only .jpg, .jpeg or .png", () => {
    const needsKtp = { ...everythingOnFile, ktpOnFile: false };
    expect(errorsOf({ ...valid, ktp: noFile() }, needsKtp)).toEqual({ ktp: ["File KTP tidak boleh kosong."] });
    expect(errorsOf({ ...valid, ktp: jpeg("ktp.pdf") }, needsKtp)).toEqual({
      ktp: ["Invalid file selected, valid files are of .jpg,.jpeg,.png types."],
    });
    expect(errorsOf({ ...valid, ktp: jpeg("KTP.JPEG") }, needsKtp)).toEqual({});
    expect(errorsOf({ ...valid, ktp: noFile() })).toEqual({});
  });

  it("wants the father's name and the NIK confirmation only with the incentive", () => {
    expect(errorsOf({ ...valid, insentif: "on" })).toEqual({
      buyerDadName: ["Nama Ayah Kandung tidak boleh kosong."],
      nikValidation: ["Mohon ceklis keterangan diatas"],
    });
    expect(errorsOf({ ...valid, insentif: "on", buyerDadName: "Budi", nikValidation: "on" })).toEqual({});
    // A product without the incentive promo ignores the box.
    expect(errorsOf({ ...valid, insentif: "on" }, { ...everythingOnFile, hasIncentive: false })).toEqual({});
  });

  it("wants the NIP only with the employee promo", () => {
    expect(errorsOf({ ...valid, ajukanInsentifPegawai: "on" })).toEqual({ buyerNip: ["NIP tidak boleh kosong"] });
    expect(errorsOf({ ...valid, ajukanInsentifPegawai: "on", buyerNip: "8612345678" })).toEqual({});
    expect(errorsOf({ ...valid, ajukanInsentifPegawai: "on" }, { ...everythingOnFile, hasEmployeePromo: false })).toEqual({});
  });

  it("shows the conditional messages together with the field messages", () => {
    expect(errorsOf({ ...valid, buyerName: "", insentif: "on", nikValidation: "on" })).toEqual({
      buyerName: ["Nama Pembeli tidak boleh kosong."],
      buyerDadName: ["Nama Ayah Kandung tidak boleh kosong."],
    });
  });

  it("caps the note at 500 characters", () => {
    expect(errorsOf({ ...valid, note: "a".repeat(501) })).toEqual({ note: ["Catatan maksimal 500 karakter."] });
    expect(errorsOf({ ...valid, note: "a".repeat(500) })).toEqual({});
  });
});

describe("address form", () => {
  const address = {
    fullAddress: "Jl. Merdeka 1",
    provinsiId: "32",
    kotaId: "32.73",
    kecamatanId: "32.73.01",
    kelurahanId: "32.73.01.1001",
    kodePos: "40111",
  };
  const errors = (fields: Record<string, string>) => {
    const submission = parseForm(form(fields), addressSchema);
    return submission.status === "success" ? {} : submission.error;
  };

  it("asks for every field", () => {
    expect(errors({})).toEqual({
      fullAddress: ["Alamat Lengkap tidak boleh kosong."],
      provinsiId: ["Provinsi tidak boleh kosong."],
      kotaId: ["Kota/Kabupaten tidak boleh kosong."],
      kecamatanId: ["Kecamatan tidak boleh kosong."],
      kelurahanId: ["Kelurahan tidak boleh kosong."],
      kodePos: ["Kode Pos tidak boleh kosong."],
    });
  });

  it("wants a 5-digit postal code and area codes", () => {
    expect(errors({ ...address, kodePos: "4011" })).toEqual({ kodePos: ["Kode Pos harus 5 digit."] });
    expect(errors({ ...address, kodePos: "40111a" })).toEqual({ kodePos: ["Kode Pos harus 5 digit."] });
    expect(errors({ ...address, kotaId: "<script>" })).toEqual({ kotaId: ["Pilihan wilayah tidak valid."] });
    expect(errors(address)).toEqual({});
  });
});
