// Limits of the back office's decision forms (issue 17), shared by the store's checks and the form
// fields' own limits (both sides: nothing here reaches a buyer's page).

/** The couriers of the 'Kurir' select; 'Lainnya' asks for the courier's name. */
export const COURIERS = [
  "JNE",
  "J&T Express",
  "SiCepat",
  "AnterAja",
  "Pos Indonesia",
  "TIKI",
  "Ninja Xpress",
  "Lion Parcel",
  "Wahana",
  "Diantar Dealer",
] as const;
export const OTHER_COURIER = "Lainnya";
export const REASON_MAX = 300;
export const TRACKING_MAX = 50;
export const COURIER_NAME_MAX = 60;
