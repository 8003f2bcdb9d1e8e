import { ApiError, defineArea, invalid, ok } from "~/.server/http/api";
import { object } from "~/.server/http/api-shapes";
import { readForm } from "~/.server/http/request";
import { processProofUpload } from "~/.server/store/orders";
import { saveUpload, uploadUrl, type UploadPurpose } from "~/.server/store/orders";
import { isEmptyFile, KTP_REQUIRED, processImageUpload } from "~/.server/images";

// Spec §7 File upload: POST multipart `file` → `{ path }`. The same checks and storage as the KTP
// photo (checkout), the transfer proof (payment) and the delivery proof (order detail): the type
// from the bytes, re-encoded without metadata, ≤ 2 MB, stored for its owner only. `type` says which:
// the order calls take only files of their purpose (ktpImageUrl a "ktp", buktiImageUrls a
// "delivery-proof", mark-paid a "transfer-proof").

const PURPOSES: UploadPurpose[] = ["ktp", "transfer-proof", "delivery-proof"];

export const UPLOAD_AREA = defineArea("upload", {
  "": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Upload a photo (or a PDF delivery proof); only its owner can use or read it",
      description:
        "Multipart form: `file` (JPG/PNG; PDF too for delivery-proof; at most 10 MB sent, 2 MB stored after processing) and `type` (ktp — the default, spec's `merchant` means the same —, transfer-proof or delivery-proof). `path` is what the order calls take (ktpImageUrl, buktiImageUrls, buktiImageUrl) and where the owner reads the file back (`GET {host}{path}` with the same bearer token).",
      bodyType: "multipart",
      body: {
        type: "object",
        required: ["file"],
        properties: { file: { type: "string", format: "binary" }, type: { enum: ["ktp", "merchant", "transfer-proof", "delivery-proof"] } },
      },
      data: object({ path: { type: "string" }, id: { type: "string" }, type: { type: "string" } }),
      success: [201],
      errors: [400, 413],
    },
    async handle({ request, user }) {
      // A body that is not multipart reads as an empty form: 'file' is then missing (400).
      const form = await readForm(request);
      const asked = String(form.get("type") ?? new URL(request.url).searchParams.get("type") ?? "ktp");
      const purpose: UploadPurpose | undefined = asked === "merchant" || asked === "" ? "ktp" : PURPOSES.find((p) => p === asked);
      if (!purpose) throw invalid({ type: ["Jenis file tidak valid."] });
      const file = form.get("file");
      if (isEmptyFile(file) || typeof file === "string" || !file) throw invalid({ file: [KTP_REQUIRED] });
      const processed = purpose === "delivery-proof" ? await processProofUpload(file) : await processImageUpload(file);
      if (!processed.ok) throw new ApiError(400, processed.message, { file: [processed.message] });
      const id = await saveUpload(user.id, purpose, processed.file);
      return ok({ path: uploadUrl(id), id, type: purpose }, "File berhasil diunggah.", 201);
    },
  },
});
