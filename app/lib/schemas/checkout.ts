import { z } from "zod/mini";

// The checkout and address forms (spec §5 Checkout, Address pickers), shared by the actions and the
// browser's on-blur validation. Messages are the spec's, verbatim; where the spec names a rule but
// not its words (NIK longer/shorter than 16, the address fields) they follow the spec's style.

export const CHECKOUT_MESSAGES = {
  buyerNameRequired: "Nama Pembeli tidak boleh kosong.",
  phoneRequired: "No. HP tidak boleh kosong.",
  phoneNumeric: "No. HP harus numeric.",
  phoneTooLong: "No. HP maksimal 14 karakter.",
  phoneTooShort: "No. HP minimal 11 karakter.",
  emailRequired: "Email tidak boleh kosong.",
  emailInvalid: "Email tidak valid.",
  nikRequired: "NIK tidak boleh kosong.",
  nikNumeric: "NIK harus numeric.",
  nikTooLong: "NIK maksimal 16 karakter.",
  nikTooShort: "NIK minimal 16 karakter.",
  ktpRequired: "File KTP tidak boleh kosong.",
  ktpWrongType: "Invalid file selected, valid files are of .jpg,.jpeg,.png types.",
  addressRequired: "Alamat tidak boleh kosong.",
  dadNameRequired: "Nama Ayah Kandung tidak boleh kosong.",
  tickRequired: "Mohon ceklis keterangan diatas",
  nipRequired: "NIP tidak boleh kosong",
} as const;

const M = CHECKOUT_MESSAGES;

/** Caps the spec leaves open; they protect the server and the database row. */
export const NOTE_MAX = 500;
const NAME_MAX = 100;
const NIP_MAX = 30;

const optionalText = (label: string, max: number) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, `${label} maksimal ${max} karakter.`)));

/** A ticked checkbox posts a value ("on"); an unticked one posts nothing. The store's typed
 * fields (CheckoutFields) and the draft hold it as a boolean. */
const tick = (error?: string) =>
  z.pipe(
    z.optional(z.union([z.string(), z.boolean()], error ? { error } : undefined)),
    z.transform((value) => value === true || typeof value === "string"),
  );

/** A box that must be ticked (the statements under the form). */
const requiredTick = (error: string) => z.pipe(tick(error), z.boolean().check(z.refine((ticked) => ticked, { error })));

/** Spec §5: non-digits are stripped as the number is typed; without JavaScript, separators people
 * type are dropped on the server and anything else is "not numeric". */
const checkoutPhone = () =>
  z.pipe(
    z.pipe(
      z.string({ error: M.phoneRequired }),
      z.transform((v) => v.replace(/[\s\-().+]/g, "")),
    ),
    z.string().check(z.regex(/^\d*$/, M.phoneNumeric), z.maxLength(14, M.phoneTooLong), z.minLength(11, M.phoneTooShort)),
  );

const nik = () =>
  z.pipe(
    z.pipe(
      z.string({ error: M.nikRequired }),
      z.transform((v) => v.replace(/\s/g, "")),
    ),
    z.string().check(z.regex(/^\d*$/, M.nikNumeric), z.maxLength(16, M.nikTooLong), z.minLength(16, M.nikTooShort)),
  );

const KTP_NAME = /\.(jpe?g|png)$/i;

/** A picked file as FormData holds it, in the browser or on the server. */
type PickedFile = { name: string; size: number; type: string };
const isPickedFile = (value: unknown): value is PickedFile =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as PickedFile).size === "number" &&
  typeof (value as PickedFile).name === "string";

export type CheckoutContext = {
  /** A KTP photo was accepted earlier and stays in the draft: the field may stay empty. */
  ktpOnFile: boolean;
  /** The NIK of the buyer's previous order is offered (issue 38): the form shows it masked, not as a field, and it may stay empty. */
  nikOnFile?: boolean;
  /** The draft has a delivery address (chosen on /address). */
  addressOnFile: boolean;
  /** The product carries the government incentive promo (else `insentif` is ignored). */
  hasIncentive: boolean;
  /** The employee check returned the employee promo (else `ajukanInsentifPegawai` is ignored). */
  hasEmployeePromo: boolean;
};

/**
 * The checkout form. Conditional rules (father's name and the NIK confirmation with the incentive,
 * the NIP with the employee promo, the KTP and address from the draft) are checked together with the
 * field rules, so one submit shows every message.
 */
export function checkoutSchema(context: CheckoutContext) {
  return z
    .object({
      note: optionalText("Catatan", NOTE_MAX),
      buyerName: z
        .string({ error: M.buyerNameRequired })
        .check(z.trim(), z.maxLength(NAME_MAX, `Nama Pembeli maksimal ${NAME_MAX} karakter.`)),
      buyerPhoneNumber: checkoutPhone(),
      buyerEmail: z
        .string({ error: M.emailRequired })
        .check(z.trim(), z.maxLength(254, M.emailInvalid), z.email({ error: M.emailInvalid })),
      buyerNik: context.nikOnFile ? z.optional(nik()) : nik(),
      buyerNip: optionalText("NIP", NIP_MAX),
      ktp: z.optional(z.custom<PickedFile>((value) => isPickedFile(value) && KTP_NAME.test(value.name), { error: M.ktpWrongType })),
      insentif: tick(),
      buyerDadName: optionalText("Nama Ayah Kandung", NAME_MAX),
      nikValidation: tick(),
      ajukanInsentifPegawai: tick(),
      bbnValidation: requiredTick(M.tickRequired),
      domisiliValidation: requiredTick(M.tickRequired),
      idempotencyKey: z.optional(z.string().check(z.maxLength(64))),
    })
    .check(
      // Runs even when some fields already have errors (zod skips object checks after them by
      // default), so one submit shows every message. Values of fields that failed are as typed.
      z.superRefine(
        (value, ctx) => {
          const insentif = context.hasIncentive && value.insentif === true;
          const missing = (field: unknown) => typeof field !== "string" || field.trim() === "";
          if (insentif && missing(value.buyerDadName))
            ctx.addIssue({ code: "custom", message: M.dadNameRequired, path: ["buyerDadName"], input: value.buyerDadName });
          if (insentif && value.nikValidation !== true)
            ctx.addIssue({ code: "custom", message: M.tickRequired, path: ["nikValidation"], input: value.nikValidation });
          if (context.hasEmployeePromo && value.ajukanInsentifPegawai === true && missing(value.buyerNip))
            ctx.addIssue({ code: "custom", message: M.nipRequired, path: ["buyerNip"], input: value.buyerNip });
          if (!context.ktpOnFile && value.ktp === undefined)
            ctx.addIssue({ code: "custom", message: M.ktpRequired, path: ["ktp"], input: value.ktp });
          if (!context.addressOnFile) ctx.addIssue({ code: "custom", message: M.addressRequired, path: ["address"], input: undefined });
        },
        { when: (payload) => typeof payload.value === "object" && payload.value !== null },
      ),
    );
}

/** A field as a form posts it or a JSON body sends it: text as typed (a number as its digits), else empty. */
const fieldText = () =>
  z.pipe(
    z.optional(z.unknown()),
    z.transform((value) => (typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : "")),
  );

/** A box as a form posts it ("on" when ticked) or a JSON body sends it (true); false, null or absent: unticked. */
const fieldTick = () =>
  z.pipe(
    z.optional(z.unknown()),
    z.transform((value) => value === true || typeof value === "string" || (typeof value === "number" && Number.isFinite(value))),
  );

/**
 * The checkout's command (issue 46 item 1): what each door reads from its transport with this one
 * schema (the web's posted form through ~/lib/forms readFields, the API's JSON body) and hands to
 * the store's submitCheckout/saveCheckoutForm. It never refuses: the store keeps the values in the
 * draft as typed and judges them with checkoutSchema, so both doors get the same messages. The KTP
 * photo is not a field here (the store takes it as a file or an upload id).
 */
export const checkoutFieldsSchema = z.object({
  note: fieldText(),
  buyerName: fieldText(),
  buyerPhoneNumber: fieldText(),
  buyerEmail: fieldText(),
  buyerNik: fieldText(),
  buyerNip: fieldText(),
  buyerDadName: fieldText(),
  insentif: fieldTick(),
  nikValidation: fieldTick(),
  ajukanInsentifPegawai: fieldTick(),
  bbnValidation: fieldTick(),
  domisiliValidation: fieldTick(),
});

export type CheckoutFields = z.output<typeof checkoutFieldsSchema>;

/** The address pickers' levels, parent first; each select posts the area code of its level. */
export const AREA_LEVELS = ["provinsiId", "kotaId", "kecamatanId", "kelurahanId"] as const;
export type AreaLevel = (typeof AREA_LEVELS)[number];

export const ADDRESS_MESSAGES = {
  fullAddress: "Alamat Lengkap tidak boleh kosong.",
  provinsiId: "Provinsi tidak boleh kosong.",
  kotaId: "Kota/Kabupaten tidak boleh kosong.",
  kecamatanId: "Kecamatan tidak boleh kosong.",
  kelurahanId: "Kelurahan tidak boleh kosong.",
  kodePos: "Kode Pos tidak boleh kosong.",
  kodePosFormat: "Kode Pos harus 5 digit.",
  areaUnknown: "Pilihan wilayah tidak valid.",
} as const;

export const FULL_ADDRESS_MAX = 500;

/** An area code from idn-area-data ("32", "32.73", "32.73.01", "32.73.01.1001"); anything else is
 * never looked up. */
export const AREA_CODE = /^\d{2}(\.\d{2}){0,2}(\.\d{4})?$/;
const areaCode = (required: string) => z.string({ error: required }).check(z.trim(), z.regex(AREA_CODE, ADDRESS_MESSAGES.areaUnknown));

/** 'Simpan' on /address: every field required; the chain itself (city in province …) is checked on
 * the server against the area tables. */
export const addressSchema = z.object({
  fullAddress: z
    .string({ error: ADDRESS_MESSAGES.fullAddress })
    .check(z.trim(), z.maxLength(FULL_ADDRESS_MAX, `Alamat Lengkap maksimal ${FULL_ADDRESS_MAX} karakter.`)),
  provinsiId: areaCode(ADDRESS_MESSAGES.provinsiId),
  kotaId: areaCode(ADDRESS_MESSAGES.kotaId),
  kecamatanId: areaCode(ADDRESS_MESSAGES.kecamatanId),
  kelurahanId: areaCode(ADDRESS_MESSAGES.kelurahanId),
  kodePos: z.string({ error: ADDRESS_MESSAGES.kodePos }).check(z.trim(), z.regex(/^\d{5}$/, ADDRESS_MESSAGES.kodePosFormat)),
});

/** Searches narrow a level's list from this many characters on (the store's AREA_SEARCH_MIN). */
export const AREA_SEARCH_MIN_CHARS = 3;
export const isAreaLevel = (value: unknown): value is AreaLevel =>
  typeof value === "string" && (AREA_LEVELS as readonly string[]).includes(value);

/**
 * The KTP photo comes from one of two inputs named `ktp` ('Kamera' with capture, 'Galeri'): the form
 * as the schema reads it holds the picked one only (or the first, empty, when none was picked).
 */
export function withOneKtpFile(formData: FormData): FormData {
  const files = formData.getAll("ktp");
  if (files.length < 2) return formData;
  const picked = files.find((file) => isPickedFile(file) && file.size > 0) ?? files[0]!;
  const one = new FormData();
  for (const [name, value] of formData) if (name !== "ktp") one.append(name, value);
  one.append("ktp", picked);
  return one;
}
