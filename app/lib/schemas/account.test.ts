import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { editProfileSchema, forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from "./account";

// Every message of spec §5 for the account forms, as the action (and the browser, on blur) sees them.

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

function errorsOf(schema: Parameters<typeof parseForm>[1], fields: Record<string, string | string[]>) {
  const submission = parseForm(form(fields), schema);
  return submission.status === "success" ? {} : (submission.error ?? {});
}

const validRegistration = {
  fullname: "Siti Rahma",
  phoneNo: "081234567890",
  nip: "9012345678",
  companyId: "1",
  email: "siti@pln.co.id",
  password: "rahasia123",
  matchPassword: "rahasia123",
};

describe("login form", () => {
  it("asks for e-mail and password", () => {
    expect(errorsOf(loginSchema, {})).toEqual({ email: ["Email tidak boleh kosong."], password: ["Kata Sandi tidak boleh kosong."] });
  });

  it("refuses an address that is not an e-mail", () => {
    expect(errorsOf(loginSchema, { email: "siti@", password: "x" })).toEqual({ email: ["Email tidak valid."] });
  });

  it("accepts e-mail and password, trimming the e-mail", () => {
    const submission = parseForm(form({ email: "  siti@pln.co.id ", password: "x" }), loginSchema);
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.email).toBe("siti@pln.co.id");
  });
});

describe("register form", () => {
  it("names every missing field with the spec's message", () => {
    expect(errorsOf(registerSchema, {})).toEqual({
      fullname: ["Nama Lengkap tidak boleh kosong."],
      phoneNo: ["Nomor HP tidak boleh kosong."],
      nip: ["NIP tidak boleh kosong."],
      companyId: ["Perusahaan tidak boleh kosong."],
      email: ["Email tidak boleh kosong."],
      password: ["Kata Sandi tidak boleh kosong."],
      matchPassword: ["Konfirmasi Kata Sandi tidak boleh kosong."],
    });
  });

  it("treats blank (spaces only) as missing", () => {
    expect(errorsOf(registerSchema, { ...validRegistration, fullname: "   ", nip: " " })).toEqual({
      fullname: ["Nama Lengkap tidak boleh kosong."],
      nip: ["NIP tidak boleh kosong."],
    });
  });

  it("wants a numeric phone number, with separators dropped", () => {
    expect(errorsOf(registerSchema, { ...validRegistration, phoneNo: "0812abc45678" })).toEqual({
      phoneNo: ["Nomor HP harus berupa numeric."],
    });
    const submission = parseForm(form({ ...validRegistration, phoneNo: "0812-3456 7890" }), registerSchema);
    expect(submission.status === "success" && submission.value.phoneNo).toBe("081234567890");
  });

  it("wants a valid e-mail", () => {
    expect(errorsOf(registerSchema, { ...validRegistration, email: "siti.pln.co.id" })).toEqual({ email: ["Email tidak valid."] });
  });

  it("wants the confirmation to match the password", () => {
    expect(errorsOf(registerSchema, { ...validRegistration, matchPassword: "rahasia124" })).toEqual({
      matchPassword: ["Konfirmasi Kata Sandi anda tidak sesuai."],
    });
  });

  it("refuses a company that is not an id", () => {
    expect(errorsOf(registerSchema, { ...validRegistration, companyId: "PLN" })).toEqual({ companyId: ["Perusahaan tidak boleh kosong."] });
    expect(errorsOf(registerSchema, { ...validRegistration, companyId: "1e3" })).toEqual({ companyId: ["Perusahaan tidak boleh kosong."] });
  });

  it("refuses repeated fields and oversized values instead of failing", () => {
    expect(errorsOf(registerSchema, { ...validRegistration, email: ["a@pln.co.id", "b@pln.co.id"] })).toEqual({
      email: ["Email tidak boleh kosong."],
    });
    expect(errorsOf(registerSchema, { ...validRegistration, fullname: "a".repeat(1_000_000) })).toEqual({
      fullname: ["Nama Lengkap maksimal 100 karakter."],
    });
  });

  it("accepts a complete registration", () => {
    expect(parseForm(form(validRegistration), registerSchema).status).toBe("success");
  });
});

describe("edit profile form", () => {
  it("asks for name and phone", () => {
    expect(errorsOf(editProfileSchema, {})).toEqual({
      fullname: ["Nama Lengkap tidak boleh kosong."],
      phoneNo: ["Nomor HP tidak boleh kosong."],
    });
  });

  it.each([
    ["08123x567890", "Nomor HP harus berupa numeric."],
    ["0812345678", "Nomor HP minimal 11 digit."],
    ["081234567890123", "Nomor HP maksimal 14 digit."],
  ])("refuses %s: %s", (phoneNo, message) => {
    expect(errorsOf(editProfileSchema, { fullname: "Siti", phoneNo })).toEqual({ phoneNo: [message] });
  });

  it.each(["08123456789", "08123456789012"])("accepts %s (11 to 14 digits)", (phoneNo) => {
    expect(parseForm(form({ fullname: "Siti", phoneNo }), editProfileSchema).status).toBe("success");
  });
});

describe("forgot password form", () => {
  it("asks for a valid e-mail", () => {
    expect(errorsOf(forgotPasswordSchema, {})).toEqual({ email: ["Email tidak boleh kosong."] });
    expect(errorsOf(forgotPasswordSchema, { email: "siti" })).toEqual({ email: ["Email tidak valid."] });
  });
});

describe("reset password form", () => {
  it("asks for the password and its confirmation", () => {
    expect(errorsOf(resetPasswordSchema, { secretCode: "abc" })).toEqual({
      password: ["Kata Sandi tidak boleh kosong."],
      matchPassword: ["Konfirmasi Kata Sandi tidak boleh kosong."],
    });
  });

  it("wants the same password twice", () => {
    expect(errorsOf(resetPasswordSchema, { secretCode: "abc", password: "rahasia123", matchPassword: "rahasia12" })).toEqual({
      matchPassword: ["Konfirmasi Kata Sandi tidak sama."],
    });
  });
});
