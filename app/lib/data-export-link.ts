// Where the e-mailed 'Unduh Data Saya' link takes a person who must sign in first (issue 43 item 2).
// The link itself answers a ZIP, which is no page to land on after login: with JavaScript the router
// rendered nothing for it, and without it the browser saved the file but kept showing the login form.
// So a signed-out visit is sent to /login with the profile's data section as the way back, where the
// same download is offered. Shared by the route, the login page and the profile (no server code).

/** An export's link opens for this many hours, then the archive is deleted (decision 0059). */
export const DATA_EXPORT_HOURS = 24;

/** The id of the profile's 'Data Saya' section (the anchor the landing scrolls to). */
export const DATA_SECTION_ID = "data-saya";
/** The profile's query parameter naming the e-mailed export. */
export const DATA_EXPORT_PARAM = "unduh";

/** The profile's data section offering export `id`: where login returns to. */
export const dataExportLanding = (id: string) => `/profile?${DATA_EXPORT_PARAM}=${encodeURIComponent(id)}#${DATA_SECTION_ID}`;

/** Whether a login's way back is the e-mailed link's landing (the login page then says why it asks). */
export const isDataExportLanding = (target: string | null | undefined) =>
  typeof target === "string" && target.startsWith(`/profile?${DATA_EXPORT_PARAM}=`);

/** Said on /login when it was reached from the e-mailed link. */
export const DATA_EXPORT_LOGIN_REASON =
  "Tautan 'Unduh Data Saya' dari email Anda berisi data pribadi, jadi hanya pemilik akun yang dapat membukanya. Silakan masuk dengan akun yang meminta salinan data tersebut; setelah itu tombol unduhnya tampil di halaman Profil.";
