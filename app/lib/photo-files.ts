/** The file names the photo inputs accept: the KTP at checkout and the transfer proof (the server
 * checks the bytes themselves as well). Its own module: the payment page needs it without the
 * checkout's schema (and zod) in its first load. */
export const KTP_ACCEPT = ".jpg,.jpeg,.png";
