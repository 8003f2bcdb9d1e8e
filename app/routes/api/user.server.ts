import { ApiError, defineArea, invalid, notFound, ok, readJson, validate } from "~/.server/http/api";
import { ADDRESS, PROFILE, object } from "~/.server/http/api-shapes";
import { getProfile, updateProfile } from "~/.server/store/people";
import { getSavedAddress, saveDraftAddress } from "~/.server/store/checkout";
import { type DataExportState, eraseAccount, latestDataExport, requestDataExport } from "~/.server/store/privacy";
import { resolveAddress } from "~/.server/store/checkout";
import { editProfileSchema } from "~/lib/schemas/account";
import { addressSchema } from "~/lib/schemas/checkout";

// Spec §7 User (/api/v1/user): the profile screens and the saved delivery address (/address).

async function profileOf(userId: number) {
  const profile = await getProfile(userId);
  if (!profile) throw notFound();
  return profile;
}

// 'Unduh Data Saya' as the API answers it: the link (a path of this site, opened with the same
// bearer token or a signed-in browser) once the job has built the ZIP.
const DATA_EXPORT = object({ ready: { type: "boolean" }, link: { type: ["string", "null"] }, expiresAt: { type: "string" } });
const dataExportOf = (state: DataExportState) => ({ ready: state.ready, link: state.link, expiresAt: state.expiresAt.toISOString() });

const area = defineArea("user", {
  "/my-profile": {
    method: "GET",
    auth: true,
    doc: { summary: "The profile (fullname, phoneNo, email, nip, companyName)", data: PROFILE },
    handle: async ({ user }) => ok(await profileOf(user.id)),
  },
  "/short-info": {
    method: "GET",
    auth: true,
    doc: {
      summary: "Who is signed in and whether the account is verified (data.verified)",
      data: object({
        email: { type: "string" },
        fullname: { type: "string" },
        verified: { type: "boolean" },
        resendAvailableAt: { type: ["string", "null"] },
      }),
    },
    handle: async ({ user }) =>
      ok({
        email: user.email,
        fullname: user.fullname,
        verified: user.verified,
        resendAvailableAt: user.resendAvailableAt?.toISOString() ?? null,
      }),
  },
  "/edit-profile": {
    method: "GET",
    auth: true,
    doc: {
      summary: "The values of the edit form (fullname, phoneNo)",
      data: object({ fullname: { type: "string" }, phoneNo: { type: "string" } }),
    },
    async handle({ user }) {
      const { fullname, phoneNo } = await profileOf(user.id);
      return ok({ fullname, phoneNo });
    },
  },
  "/update-profile": {
    method: "PUT",
    auth: true,
    doc: { summary: "Change fullname and phoneNo (the NIP only through an admin)", body: editProfileSchema, data: PROFILE, errors: [400] },
    async handle({ request, user }) {
      const value = validate(await readJson(request), editProfileSchema);
      await updateProfile(user.id, value);
      return ok(await profileOf(user.id), "Profil berhasil diperbarui.");
    },
  },
  "/order/set-location": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Save the delivery address (also on the open checkout, as /address does)",
      description: "Area ids are the codes of /location/*; the chain (kota in provinsi …) is checked.",
      body: addressSchema,
      data: ADDRESS,
      errors: [400],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      // The address may come flat or as `address: {…}` (the create-order payload's shape).
      const source = body.address && typeof body.address === "object" ? (body.address as Record<string, unknown>) : body;
      const value = validate(source, addressSchema);
      const resolved = await resolveAddress(value);
      if (!resolved.ok) throw invalid({ [resolved.field]: [resolved.message] });
      await saveDraftAddress(user.id, value);
      return ok(resolved.address, "Alamat berhasil disimpan.");
    },
  },
  "/order/location": {
    method: "GET",
    auth: true,
    doc: { summary: "The saved delivery address with the area names, or null", data: { anyOf: [ADDRESS, { type: "null" }] } },
    async handle({ user }) {
      const saved = await getSavedAddress(user.id);
      const resolved = saved ? await resolveAddress(saved) : null;
      return ok(resolved?.ok ? resolved.address : null);
    },
  },
  "/data-export": {
    method: "GET",
    auth: true,
    doc: {
      summary: "'Unduh Data Saya': the last request still valid (24 h), or null",
      description: "link is null while the ZIP is being built; then GET it with this token (application/zip).",
      data: { anyOf: [DATA_EXPORT, { type: "null" }] },
    },
    async handle({ user }) {
      const latest = await latestDataExport(user.id);
      return ok(latest && dataExportOf(latest));
    },
  },
  "/data-export/request": {
    method: "POST",
    auth: true,
    doc: {
      summary: "'Unduh Data Saya': ask for a ZIP of the account's data (built by a job, link e-mailed, valid 24 h)",
      description: "Within an hour of the last request, that request is answered again (no second ZIP).",
      data: DATA_EXPORT,
    },
    async handle({ user }) {
      return ok(dataExportOf(await requestDataExport(user.id)), "Permintaan diterima. Tautan unduhan akan dikirim ke email Anda.");
    },
  },
  "/delete-account": {
    method: "POST",
    auth: true,
    doc: {
      summary: "'Hapus Akun': erase the account (the password again); every token ends",
      description: "409 while an order is open or money is due to the buyer; the orders' financial rows are kept under a pseudonym.",
      body: { type: "object", required: ["password"], properties: { password: { type: "string", maxLength: 200 } } },
      data: { type: "null" },
      errors: [400, 409],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const password = typeof body.password === "string" ? body.password : "";
      if (!password) throw invalid({ password: ["Kata sandi tidak boleh kosong."] });
      const erased = await eraseAccount(user.id, password);
      if (!erased.ok) throw erased.field ? invalid({ [erased.field]: [erased.message] }) : new ApiError(409, erased.message);
      return ok(null, "Akun Anda telah dihapus.");
    },
  },
});

export const USER_AREA = area;
