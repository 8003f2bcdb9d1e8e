import { asForm, defineArea, invalid, notFound, ok, readJson, validate } from "~/.server/http/api";
import { ADDRESS, PROFILE, object } from "~/.server/http/api-shapes";
import { getProfile, updateProfile } from "~/.server/store/people";
import { getSavedAddress, saveDraftAddress } from "~/.server/store/checkout";
import { resolveAddress } from "~/.server/store/checkout";
import { editProfileSchema } from "~/lib/schemas/account";
import { addressSchema } from "~/lib/schemas/checkout";

// Spec §7 User (/api/v1/user): the profile screens and the saved delivery address (/address).

const ADDRESS_FIELDS = ["fullAddress", "provinsiId", "kotaId", "kecamatanId", "kelurahanId", "kodePos"] as const;

async function profileOf(userId: number) {
  const profile = await getProfile(userId);
  if (!profile) throw notFound();
  return profile;
}

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
      const value = validate(asForm(await readJson(request), ["fullname", "phoneNo"]), editProfileSchema);
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
      const value = validate(asForm(source, ADDRESS_FIELDS), addressSchema);
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
});

export const USER_AREA = area;
