import type { ArtworkKind, BannerArtwork } from "./demo-artwork";
import type { BannerTarget } from "../db/schema";

// The demo catalogue's data (DEMO_DATA=1, DESIGN §6) but its products: categories, cities, their
// colours, promos, the product's shape, stock and the banners. The products are in
// demo-products-*.ts by category; demo-catalogue.ts seeds all of it.

// The same titles and order every new store starts with (migration 0015_operator_rules, issue 38).
export const DEMO_CATEGORIES = [
  "Kendaraan Listrik",
  "Motor Listrik",
  "Mobil Listrik",
  "Sepeda Listrik",
  "Peralatan Rumah",
  "Aksesori",
] as const;
export type CategoryName = (typeof DEMO_CATEGORIES)[number];

export const DEMO_CITIES = [
  "Jakarta Selatan",
  "Jakarta Pusat",
  "Tangerang",
  "Bandung",
  "Semarang",
  "Yogyakarta",
  "Surabaya",
  "Denpasar",
  "Medan",
  "Makassar",
] as const;
export type CityName = (typeof DEMO_CITIES)[number];

export const COLOURS: Record<CategoryName, { colour: string; accent: string }> = {
  "Kendaraan Listrik": { colour: "#00897b", accent: "#ffd200" },
  "Motor Listrik": { colour: "#0b6fb0", accent: "#ffd200" },
  "Mobil Listrik": { colour: "#3949ab", accent: "#80d8ff" },
  "Sepeda Listrik": { colour: "#2e7d32", accent: "#ffeb3b" },
  "Peralatan Rumah": { colour: "#c62828", accent: "#ffca28" },
  Aksesori: { colour: "#6a1b9a", accent: "#ffd200" },
};

/**
 * Promos. The incentive badges (spec §9) are chosen by the fixed amounts 1,000,000 ('pln', the
 * employee promo) and 250,000 ('icp'), and by the incentive flag (`incentive` = the government
 * electric-vehicle purchase incentive). Others are ordinary promos, listed in the terms sheet only.
 */
export const DEMO_PROMOS = {
  pln: {
    title: "Promo Pegawai PLN Group",
    discountType: "v",
    discount: 1_000_000,
    incentive: 0,
    description:
      "Potongan Rp1.000.000 khusus pegawai PLN Group yang NIP-nya terdaftar. Berlaku satu kali per pegawai untuk setiap jenis produk. Syarat lengkap: https://www.pln.co.id/promo-pegawai",
  },
  icp: {
    title: "Insentif Cashback PLN (ICP)",
    discountType: "v",
    discount: 250_000,
    incentive: 0,
    description: "Potongan Rp250.000 untuk pembelian kendaraan listrik dan peralatan listrik rumah tangga melalui Toko Pegawai.",
  },
  pemerintah: {
    title: "Insentif Pemerintah Kendaraan Listrik",
    discountType: "v",
    discount: 7_000_000,
    incentive: 1,
    description:
      "Bantuan pemerintah untuk pembelian motor listrik baru dengan TKDN minimal 40%. Satu NIK hanya dapat digunakan satu kali. Wajib melampirkan foto KTP saat checkout.",
  },
  akhirTahun: {
    title: "Diskon Akhir Tahun",
    discountType: "%",
    discount: 5,
    incentive: 0,
    description: "Diskon 5% dari harga setelah potongan lain, berlaku hingga 31 Desember.",
  },
  hariPelanggan: {
    title: "Cashback Hari Pelanggan Nasional",
    discountType: "v",
    discount: 150_000,
    incentive: 0,
    description: "Potongan langsung Rp150.000 dalam rangka Hari Pelanggan Nasional.",
  },
  dapurListrik: {
    title: "Promo Dapur Listrik",
    discountType: "%",
    discount: 10,
    incentive: 0,
    description: "Diskon 10% untuk kompor induksi dan peralatan masak. Info: http://www.pln.co.id/dapur-listrik",
  },
} as const satisfies Record<string, { title: string; discountType: "v" | "%"; discount: number; incentive: number; description: string }>;
export type PromoCode = keyof typeof DEMO_PROMOS;

export type DemoProduct = {
  sku: string;
  title: string | null;
  category: CategoryName;
  city: CityName;
  price: number | null;
  discount?: number;
  discountType?: "v" | "%";
  rating?: number | null;
  sold?: number;
  views?: number;
  weightGram: number;
  minimumPurchase?: number;
  promos?: PromoCode[];
  /** How many pictures the product has (0: none, the card stays grey). */
  images: number;
  kind: ArtworkKind;
  description: string;
  orderable?: boolean;
};

/** Units of every orderable demo product; one that cannot be ordered ('Stok habis', no price) has 0. */
export const DEMO_STOCK = 25;
export const demoStockOf = (product: DemoProduct) => (product.orderable === false || product.price === null ? 0 : DEMO_STOCK);

/** The terms every vehicle's description ends with. */
export const VEHICLE_TERMS =
  "Harga sudah termasuk BBN dan STNK untuk wilayah pengiriman. Pengiriman dilakukan oleh dealer resmi; biaya kirim dibayar di luar aplikasi.";

export type DemoBanner = BannerArtwork & { code: string; title: string };

export const DEMO_BANNERS: DemoBanner[] = [
  {
    code: "promo-pegawai",
    title: "Promo Pegawai PLN: potongan Rp1.000.000",
    headline: "Promo Pegawai",
    subline: "Potongan Rp1 juta",
    kind: "motor",
    colour: "#0b6fb0",
    accent: "#ffd200",
  },
  {
    code: "insentif-ev",
    title: "Insentif pemerintah untuk motor listrik",
    headline: "Insentif Motor",
    subline: "Hemat hingga Rp7 juta",
    kind: "motor",
    colour: "#00897b",
    accent: "#ffd200",
  },
  {
    code: "dapur-listrik",
    title: "Promo Dapur Listrik: kompor induksi diskon 10%",
    headline: "Dapur Listrik",
    subline: "Kompor induksi -10%",
    kind: "stove",
    colour: "#c62828",
    accent: "#ffca28",
  },
  {
    code: "mobil-listrik",
    title: "Mobil listrik dengan cicilan ringan",
    headline: "Mobil Listrik",
    subline: "Cicilan hingga 12 bulan",
    kind: "car",
    colour: "#3949ab",
    accent: "#80d8ff",
  },
  {
    code: "plts-atap",
    title: "PLTS atap untuk rumah pegawai",
    headline: "PLTS Atap",
    subline: "Hemat tagihan listrik",
    kind: "solar",
    colour: "#6a1b9a",
    accent: "#ffd200",
  },
];

/**
 * Where each demo banner leads, by banner code: every banner is a link to what it advertises. Written
 * into the banner rows (banners.target) by the seeding; store/catalogue/catalogue.ts turns it into an address.
 */
export const DEMO_BANNER_LINKS: Record<string, BannerTarget> = {
  "promo-pegawai": { keyword: "listrik" },
  "insentif-ev": { keyword: "motor", category: "Motor Listrik" },
  "dapur-listrik": { keyword: "induksi", category: "Peralatan Rumah" },
  "mobil-listrik": { sku: "wuling-air-ev" },
  "plts-atap": { sku: "paket-plts-atap" },
};
