import { z } from "zod/mini";

// One schema per form (spec §5), shared by the action and the browser's on-blur validation.
// Messages are the spec's, verbatim; the length caps that the spec leaves open protect the server.

const text = (required: string, label: string, max: number) =>
  z.string({ error: required }).check(z.trim(), z.maxLength(max, `${label} maksimal ${max} karakter.`));

const email = () =>
  z
    .string({ error: "Email tidak boleh kosong." })
    .check(z.trim(), z.maxLength(254, "Email tidak valid."), z.email({ error: "Email tidak valid." }));

const password = () => z.string({ error: "Kata Sandi tidak boleh kosong." }).check(z.maxLength(128, "Kata Sandi maksimal 128 karakter."));

const newPassword = () =>
  z
    .string({ error: "Kata Sandi tidak boleh kosong." })
    .check(z.minLength(8, "Kata Sandi minimal 8 karakter."), z.maxLength(128, "Kata Sandi maksimal 128 karakter."));

/** Phone: separators typed by people are dropped; anything else that is not a digit is refused. */
export function phoneNumber(prefix = "Nomor HP") {
  return z.pipe(
    z.pipe(
      z.string({ error: `${prefix} tidak boleh kosong.` }),
      z.transform((v) => v.replace(/[\s\-().+]/g, "")),
    ),
    z
      .string()
      .check(
        z.regex(/^\d*$/, `${prefix} harus berupa numeric.`),
        z.minLength(11, `${prefix} minimal 11 digit.`),
        z.maxLength(14, `${prefix} maksimal 14 digit.`),
      ),
  );
}

/** The browser half of the phone rule (spec §5: non-digits are stripped as the number is typed). */
export function keepDigitsOnly(event: { currentTarget: HTMLInputElement }) {
  const input = event.currentTarget;
  const digits = input.value.replace(/\D/g, "");
  if (digits !== input.value) input.value = digits;
}

export const loginSchema = z.object({
  email: email(),
  password: password(),
  redirect: z.optional(z.string()),
});

export const registerSchema = z
  .object({
    fullname: text("Nama Lengkap tidak boleh kosong.", "Nama Lengkap", 100),
    phoneNo: phoneNumber(),
    nip: text("NIP tidak boleh kosong.", "NIP", 30),
    companyId: z.string({ error: "Perusahaan tidak boleh kosong." }).check(z.regex(/^\d{1,9}$/, "Perusahaan tidak boleh kosong.")),
    email: email(),
    password: newPassword(),
    matchPassword: z.string({ error: "Konfirmasi Kata Sandi tidak boleh kosong." }),
  })
  .check(
    z.refine((v) => v.password === v.matchPassword, {
      message: "Konfirmasi Kata Sandi anda tidak sesuai.",
      path: ["matchPassword"],
      when: (payload) =>
        typeof (payload.value as { matchPassword?: unknown })?.matchPassword === "string" &&
        typeof (payload.value as { password?: unknown })?.password === "string",
    }),
  );

export const editProfileSchema = z.object({
  fullname: text("Nama Lengkap tidak boleh kosong.", "Nama Lengkap", 100),
  phoneNo: phoneNumber(),
});

export const forgotPasswordSchema = z.object({ email: email() });

export const resetPasswordSchema = z
  .object({
    secretCode: z.string({ error: "Mohon maaf, link reset password anda tidak valid." }),
    password: newPassword(),
    matchPassword: z.string({ error: "Konfirmasi Kata Sandi tidak boleh kosong." }),
  })
  .check(
    z.refine((v) => v.password === v.matchPassword, {
      message: "Konfirmasi Kata Sandi tidak sama.",
      path: ["matchPassword"],
      when: (payload) =>
        typeof (payload.value as { matchPassword?: unknown })?.matchPassword === "string" &&
        typeof (payload.value as { password?: unknown })?.password === "string",
    }),
  );
