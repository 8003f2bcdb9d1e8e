import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, inArray, isNull, like, not, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../db/types";
import { env } from "../env";
import { BANNER_SIZE, CARD_SIZE, DETAIL_SIZE, bannerSvg, productSvg, webpOf, type ArtworkKind, type BannerArtwork } from "./demo-artwork";
import { banners, categories, cities, orders, productImages, productPromos, products, promos, type BannerTarget } from "../db/schema";
// Demo data lies above the store (db/client.ts runs it through registerDemoSeeder): the catalogue's index.
import { invalidateCatalogueCache } from "../store/catalogue";

// The demo catalogue (DEMO_DATA=1, DESIGN §6): categories, cities, promos, ~45 products and 5
// banners, with images in DATA_DIR/media served by /media/:file: copied from the ones the build
// drew (preparedMediaFolder), or drawn at seed time where there are none (dev server, tests).
// Idempotent: every row has a stable key (title, name, code or sku) and is inserted only when
// absent, so seeding runs at every start and against a shared database that already has rows.
// Long module: most of it is the demo's data (the product, promo and banner lists), read as one table.

/** Bump when the artwork changes: the file names change with it (they are cached for a year). */
const ARTWORK_VERSION = 2;

// The same titles and order every new store starts with (migration 0015_operator_rules, issue 38).
export const DEMO_CATEGORIES = [
  "Kendaraan Listrik",
  "Motor Listrik",
  "Mobil Listrik",
  "Sepeda Listrik",
  "Peralatan Rumah",
  "Aksesori",
] as const;
type CategoryName = (typeof DEMO_CATEGORIES)[number];

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
type CityName = (typeof DEMO_CITIES)[number];

const COLOURS: Record<CategoryName, { colour: string; accent: string }> = {
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
const DEMO_PROMOS = {
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
type PromoCode = keyof typeof DEMO_PROMOS;

type DemoProduct = {
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
const demoStockOf = (product: DemoProduct) => (product.orderable === false || product.price === null ? 0 : DEMO_STOCK);

const VEHICLE_TERMS =
  "Harga sudah termasuk BBN dan STNK untuk wilayah pengiriman. Pengiriman dilakukan oleh dealer resmi; biaya kirim dibayar di luar aplikasi.";

export const DEMO_PRODUCTS: DemoProduct[] = [
  // Motor Listrik
  {
    sku: "gesits-g1",
    title: "Gesits G1 Motor Listrik Nasional",
    category: "Motor Listrik",
    city: "Jakarta Selatan",
    price: 28_500_000,
    discount: 5,
    discountType: "%",
    rating: 92,
    sold: 134,
    views: 2310,
    weightGram: 99_000,
    promos: ["pln", "icp", "pemerintah"],
    images: 3,
    kind: "motor",
    description: `Motor listrik buatan dalam negeri dengan TKDN di atas 40%.\nBaterai lithium 72V 20Ah, jarak tempuh hingga 50 km per baterai, kecepatan maksimum 70 km/jam.\n${VEHICLE_TERMS}\nSpesifikasi lengkap: https://gesits.co.id/spesifikasi`,
  },
  {
    sku: "volta-virgo",
    title: "Volta Virgo Motor Listrik Baterai Ganda",
    category: "Motor Listrik",
    city: "Semarang",
    price: 17_900_000,
    discount: 1_500_000,
    discountType: "v",
    rating: 88,
    sold: 87,
    views: 1450,
    weightGram: 82_000,
    promos: ["pln", "pemerintah"],
    images: 2,
    kind: "motor",
    description: `Dua slot baterai, jarak tempuh hingga 110 km. Garansi rangka 3 tahun.\n${VEHICLE_TERMS}`,
  },
  {
    sku: "alva-one",
    title: "Alva One XP Motor Listrik Premium",
    category: "Motor Listrik",
    city: "Jakarta Pusat",
    price: 39_900_000,
    rating: 95,
    sold: 41,
    views: 980,
    weightGram: 105_000,
    promos: ["pln", "icp"],
    images: 2,
    kind: "motor",
    description: `Motor listrik premium dengan layar TFT, konektivitas aplikasi dan pengisian cepat.\nBrosur: https://alvaauto.com/one-xp`,
  },
  {
    sku: "polytron-foxr",
    title: "Polytron Fox-R Motor Listrik Sewa Baterai",
    category: "Motor Listrik",
    city: "Tangerang",
    price: 21_500_000,
    discount: 10,
    discountType: "%",
    rating: 84,
    sold: 62,
    weightGram: 90_000,
    promos: ["pln", "icp", "akhirTahun"],
    images: 2,
    kind: "motor",
    description: "Skema sewa baterai bulanan tersedia. Jarak tempuh 130 km dengan baterai penuh.",
  },
  {
    sku: "united-t1800",
    title: "United T1800 Motor Listrik",
    category: "Motor Listrik",
    city: "Surabaya",
    price: 32_000_000,
    rating: 79,
    sold: 15,
    weightGram: 96_000,
    promos: ["icp", "pemerintah"],
    images: 1,
    kind: "motor",
    description: "Tenaga puncak 3.000 W, rem cakram depan-belakang, lampu LED.",
  },
  {
    sku: "viar-q1",
    title: "Viar New Q1 Motor Listrik Harian",
    category: "Motor Listrik",
    city: "Semarang",
    price: 18_750_000,
    discount: 750_000,
    discountType: "v",
    rating: 81,
    sold: 210,
    weightGram: 76_000,
    promos: ["pemerintah"],
    images: 1,
    kind: "motor",
    description: "Motor listrik ringan untuk perjalanan harian di dalam kota.",
  },
  {
    sku: "selis-agats",
    title: "Selis Agats Motor Listrik",
    category: "Motor Listrik",
    city: "Bandung",
    price: 14_900_000,
    rating: null,
    sold: 0,
    weightGram: 70_000,
    images: 1,
    kind: "motor",
    description: "Produk baru di Toko Pegawai. Belum ada ulasan.",
  },
  {
    sku: "smoot-tempur",
    title: "Smoot Tempur Motor Listrik Semi-Trail untuk Medan Perkebunan dan Jalan Desa",
    category: "Motor Listrik",
    city: "Medan",
    price: 23_400_000,
    discount: 3,
    discountType: "%",
    rating: 73,
    sold: 9,
    weightGram: 88_000,
    promos: ["pln"],
    images: 2,
    kind: "motor",
    description: "Ban semi-trail, suspensi panjang, cocok untuk petugas lapangan di daerah.",
  },
  {
    sku: "yadea-g6",
    title: "Yadea G6 Motor Listrik",
    category: "Motor Listrik",
    city: "Makassar",
    price: 25_900_000,
    rating: 90,
    sold: 58,
    weightGram: 93_000,
    promos: ["pln", "icp", "hariPelanggan"],
    images: 2,
    kind: "motor",
    description: "Motor listrik bergaya skuter dengan baterai lithium 72V, jarak tempuh hingga 80 km, dan lampu LED penuh.",
  },
  {
    sku: "davigo-dragon",
    title: "Davigo Dragon Motor Listrik",
    category: "Motor Listrik",
    city: "Yogyakarta",
    price: 16_500_000,
    discount: 500_000,
    discountType: "v",
    rating: 68,
    sold: 4,
    weightGram: 74_000,
    images: 1,
    kind: "motor",
    description: "Desain retro, baterai 60V 30Ah.",
  },
  {
    sku: "uwinfly-t3",
    title: "Uwinfly T3 Motor Listrik Mini",
    category: "Motor Listrik",
    city: "Denpasar",
    price: 9_800_000,
    rating: 77,
    sold: 301,
    weightGram: 55_000,
    images: 1,
    kind: "motor",
    description: "Motor listrik mini untuk kompleks perumahan dan kampus.",
  },

  // Mobil Listrik
  {
    sku: "wuling-air-ev",
    title: "Wuling Air ev Long Range",
    category: "Mobil Listrik",
    city: "Jakarta Selatan",
    price: 299_500_000,
    discount: 10_000_000,
    discountType: "v",
    rating: 91,
    sold: 23,
    views: 5120,
    weightGram: 950_000,
    promos: ["pln", "akhirTahun"],
    images: 3,
    kind: "car",
    description: `Mobil listrik kompak, jarak tempuh hingga 300 km (NEDC).\n${VEHICLE_TERMS}\nSimulasi kredit: https://wuling.id/air-ev`,
  },
  {
    sku: "hyundai-ioniq5",
    title: "Hyundai IONIQ 5 Signature Long Range",
    category: "Mobil Listrik",
    city: "Jakarta Pusat",
    price: 782_000_000,
    discount: 2,
    discountType: "%",
    rating: 97,
    sold: 6,
    weightGram: 2_100_000,
    promos: ["pln"],
    images: 3,
    kind: "car",
    description: `Baterai 72,6 kWh, pengisian ultra cepat 10-80% dalam 18 menit.\n${VEHICLE_TERMS}`,
  },
  {
    sku: "wuling-binguo",
    title: "Wuling BinguoEV 410 km",
    category: "Mobil Listrik",
    city: "Tangerang",
    price: 372_000_000,
    rating: 86,
    sold: 11,
    weightGram: 1_300_000,
    promos: ["pln", "icp"],
    images: 2,
    kind: "car",
    description: "Hatchback listrik dengan jarak tempuh 410 km.",
  },
  {
    sku: "chery-omoda-e5",
    title: "Chery Omoda E5",
    category: "Mobil Listrik",
    city: "Surabaya",
    price: 488_800_000,
    discount: 15_000_000,
    discountType: "v",
    rating: 83,
    sold: 3,
    weightGram: 1_600_000,
    images: 2,
    kind: "car",
    description: "SUV listrik dengan baterai 61 kWh.",
  },
  {
    sku: "mg4-ev",
    title: "MG 4 EV Magnify",
    category: "Mobil Listrik",
    city: "Bandung",
    price: 528_000_000,
    rating: null,
    sold: 0,
    weightGram: 1_650_000,
    images: 1,
    kind: "car",
    description: "Unit inden, estimasi pengiriman 8 minggu.",
  },
  {
    sku: "byd-dolphin",
    title: "BYD Dolphin Premium Extended Range",
    category: "Mobil Listrik",
    city: "Denpasar",
    price: 425_000_000,
    discount: 1,
    discountType: "%",
    rating: 89,
    sold: 8,
    weightGram: 1_400_000,
    promos: ["pln", "hariPelanggan"],
    images: 2,
    kind: "car",
    description: "Hatchback listrik dengan Blade Battery.",
  },
  {
    sku: "kona-electric",
    title: "Hyundai Kona Electric",
    category: "Mobil Listrik",
    city: "Medan",
    price: null,
    rating: 85,
    sold: 2,
    weightGram: 1_700_000,
    images: 1,
    kind: "car",
    description: "Harga menyusul. Produk belum dapat dipesan.",
    orderable: false,
  },
  {
    sku: "wuling-cloud-ev",
    title: "Wuling Cloud EV",
    category: "Mobil Listrik",
    city: "Makassar",
    price: 398_000_000,
    rating: 80,
    sold: 1,
    weightGram: 1_500_000,
    images: 0,
    kind: "car",
    description: "Stok habis untuk sementara.",
    orderable: false,
  },

  // Sepeda Listrik
  {
    sku: "pacific-estryder",
    title: "Pacific E-Stryder Sepeda Listrik",
    category: "Sepeda Listrik",
    city: "Surabaya",
    price: 6_250_000,
    discount: 15,
    discountType: "%",
    rating: 87,
    sold: 145,
    weightGram: 28_000,
    promos: ["icp"],
    images: 2,
    kind: "bike",
    description: "Sepeda listrik dengan pedal assist 5 tingkat.",
  },
  {
    sku: "exotic-14",
    title: "Exotic Sepeda Listrik Lipat 14 inci",
    category: "Sepeda Listrik",
    city: "Jakarta Selatan",
    price: 4_590_000,
    rating: 76,
    sold: 420,
    weightGram: 19_500,
    images: 1,
    kind: "bike",
    description: "Lipat, ringan, muat di bagasi mobil.",
  },
  {
    sku: "selis-rosa",
    title: "Selis Rosa Sepeda Listrik Keranjang",
    category: "Sepeda Listrik",
    city: "Yogyakarta",
    price: 5_300_000,
    discount: 300_000,
    discountType: "v",
    rating: 82,
    sold: 76,
    weightGram: 35_000,
    images: 1,
    kind: "bike",
    description: "Keranjang depan besar, jok boncengan.",
  },
  {
    sku: "united-titan",
    title: "United Titan Sepeda Listrik Gunung",
    category: "Sepeda Listrik",
    city: "Bandung",
    price: 12_750_000,
    rating: 93,
    sold: 12,
    weightGram: 24_000,
    promos: ["hariPelanggan"],
    images: 2,
    kind: "bike",
    description: "Motor hub 500 W, suspensi depan, 9 percepatan.",
  },
  {
    sku: "element-ecosmart",
    title: "Element Ecosmart Sepeda Listrik",
    category: "Sepeda Listrik",
    city: "Tangerang",
    price: 7_100_000,
    rating: 0,
    sold: 1,
    weightGram: 26_000,
    images: 1,
    kind: "bike",
    description: "Rating dari satu pembeli pertama.",
  },
  {
    sku: "polygon-path-e",
    title: "Polygon Path E5 Sepeda Listrik Kota",
    category: "Sepeda Listrik",
    city: "Denpasar",
    price: 14_999_000,
    discount: 8,
    discountType: "%",
    rating: 96,
    sold: 33,
    weightGram: 22_000,
    images: 1,
    kind: "bike",
    description: "Sepeda listrik kota dengan baterai terintegrasi di rangka.",
  },
  {
    sku: "saige-anak",
    title: "Saige Sepeda Listrik Anak 12 inci",
    category: "Sepeda Listrik",
    city: "Medan",
    price: 2_450_000,
    rating: null,
    sold: 0,
    weightGram: 12_000,
    images: 0,
    kind: "bike",
    description: "Kecepatan maksimum dibatasi 12 km/jam.",
  },

  // Kendaraan Listrik (lain)
  {
    sku: "roda-tiga-kargo",
    title: "Motor Roda Tiga Listrik Kargo 500 kg",
    category: "Kendaraan Listrik",
    city: "Semarang",
    price: 42_000_000,
    discount: 2_000_000,
    discountType: "v",
    rating: 78,
    sold: 5,
    weightGram: 320_000,
    minimumPurchase: 1,
    promos: ["pln", "icp", "pemerintah", "akhirTahun"],
    images: 2,
    kind: "tricycle",
    description: "Bak kargo 150 x 110 cm, daya angkut 500 kg. Cocok untuk UMKM binaan PLN.",
  },
  {
    sku: "gerobak-listrik",
    title: "Gerobak Listrik Niaga untuk Usaha Kuliner Keliling",
    category: "Kendaraan Listrik",
    city: "Yogyakarta",
    price: 27_500_000,
    rating: 71,
    sold: 14,
    weightGram: 210_000,
    promos: ["icp"],
    images: 1,
    kind: "tricycle",
    description: "Gerobak niaga roda tiga dengan etalase, stop kontak 220 V untuk peralatan masak listrik.",
  },
  {
    sku: "atv-anak",
    title: "ATV Listrik Anak 350 W",
    category: "Kendaraan Listrik",
    city: "Bandung",
    price: 5_900_000,
    rating: 64,
    sold: 22,
    weightGram: 45_000,
    images: 1,
    kind: "tricycle",
    description: "Untuk anak usia 6-12 tahun, dengan pengaman kecepatan.",
  },

  // Peralatan Rumah
  {
    sku: "maspion-induksi-2",
    title: "Kompor Induksi Maspion 2 Tungku",
    category: "Peralatan Rumah",
    city: "Surabaya",
    price: 1_299_000,
    discount: 20,
    discountType: "%",
    rating: 89,
    sold: 1_240,
    views: 8800,
    weightGram: 5_400,
    promos: ["dapurListrik", "icp"],
    images: 2,
    kind: "stove",
    description: "Dua tungku 2 x 1.000 W, panel sentuh, 8 level daya.\nBeli paket kompor + panci: https://www.pln.co.id/paket-dapur",
  },
  {
    sku: "philips-hd4911",
    title: "Kompor Induksi Philips HD4911 Satu Tungku",
    category: "Peralatan Rumah",
    city: "Jakarta Pusat",
    price: 689_000,
    rating: 91,
    sold: 2_315,
    weightGram: 2_800,
    promos: ["dapurListrik"],
    images: 1,
    kind: "stove",
    description: "Daya 2.100 W dengan 10 level, timer 24 jam.",
  },
  {
    sku: "modena-induksi",
    title: "Kompor Tanam Induksi Modena 60 cm Tiga Zona",
    category: "Peralatan Rumah",
    city: "Tangerang",
    price: 6_990_000,
    discount: 500_000,
    discountType: "v",
    rating: 94,
    sold: 48,
    weightGram: 12_000,
    images: 1,
    kind: "stove",
    description: "Kompor tanam dengan tiga zona masak dan kunci anak.",
  },
  {
    sku: "panci-induksi",
    title: "Panci Set Stainless Siap Induksi 5 pcs",
    category: "Peralatan Rumah",
    city: "Bandung",
    price: 459_000,
    discount: 25,
    discountType: "%",
    rating: 86,
    sold: 980,
    weightGram: 3_200,
    minimumPurchase: 2,
    promos: ["dapurListrik"],
    images: 1,
    kind: "cookware",
    description: "Minimal pembelian 2 set untuk harga grosir pegawai.",
  },
  {
    sku: "rice-cooker",
    title: "Rice Cooker Digital 1,8 L Hemat Listrik 350 W",
    category: "Peralatan Rumah",
    city: "Semarang",
    price: 549_000,
    rating: 75,
    sold: 610,
    weightGram: 3_000,
    images: 1,
    kind: "appliance",
    description: "Daya rendah 350 W, 8 menu masak.",
  },
  {
    sku: "water-heater",
    title: "Pemanas Air Listrik 15 L",
    category: "Peralatan Rumah",
    city: "Medan",
    price: 1_875_000,
    rating: 80,
    sold: 57,
    weightGram: 9_000,
    images: 0,
    kind: "appliance",
    description: "Daya 500 W, pengaman suhu berlapis.",
  },
  {
    sku: "air-fryer",
    title: "Air Fryer Digital 4,5 L",
    category: "Peralatan Rumah",
    city: "Jakarta Selatan",
    price: 899_000,
    discount: 100_000,
    discountType: "v",
    rating: 88,
    sold: 1_012,
    weightGram: 4_500,
    promos: ["hariPelanggan"],
    images: 1,
    kind: "appliance",
    description: "Masak tanpa minyak dengan 8 program.",
  },
  {
    sku: "teko-listrik",
    title: "Teko Listrik Stainless 1,7 L",
    category: "Peralatan Rumah",
    city: "Yogyakarta",
    price: 189_000,
    rating: 72,
    sold: 3_560,
    weightGram: 1_100,
    minimumPurchase: 3,
    images: 1,
    kind: "appliance",
    description: "Mati otomatis saat air mendidih.",
  },

  // Aksesori
  {
    sku: "home-charger-7kw",
    title: "Home Charger Mobil Listrik 7 kW Type 2",
    category: "Aksesori",
    city: "Jakarta Selatan",
    price: 14_500_000,
    discount: 5,
    discountType: "%",
    rating: 90,
    sold: 37,
    weightGram: 8_000,
    promos: ["pln", "icp"],
    images: 2,
    kind: "charger",
    description:
      "Termasuk instalasi standar hingga 10 meter kabel. Wajib daya listrik rumah minimal 7.700 VA.\nTambah daya: https://pln.co.id/tambah-daya",
  },
  {
    sku: "panel-surya-100wp",
    title: "Panel Surya 100 Wp Monocrystalline",
    category: "Aksesori",
    city: "Denpasar",
    price: 1_250_000,
    rating: 87,
    sold: 405,
    weightGram: 7_500,
    promos: ["icp"],
    images: 2,
    kind: "solar",
    description: "Efisiensi 21%, garansi daya 25 tahun.",
  },
  {
    sku: "paket-plts-atap",
    title: "Paket PLTS Atap 2 kWp Lengkap dengan Inverter On-Grid dan Pemasangan",
    category: "Aksesori",
    city: "Jakarta Pusat",
    price: 32_000_000,
    discount: 3_000_000,
    discountType: "v",
    rating: 93,
    sold: 19,
    weightGram: 150_000,
    promos: ["pln", "akhirTahun"],
    images: 2,
    kind: "solar",
    description:
      "Survei lokasi gratis. Termasuk pengurusan izin ke PLN.\nKalkulator hemat: https://www.pln.co.id/plts-atap\nKontak: plts@pln.co.id",
  },
  {
    sku: "baterai-60v",
    title: "Baterai Cadangan Motor Listrik 60V 28Ah",
    category: "Aksesori",
    city: "Bandung",
    price: 6_800_000,
    rating: 85,
    sold: 64,
    weightGram: 14_000,
    images: 1,
    kind: "battery",
    description: "Kompatibel dengan sebagian besar motor listrik 60V.",
  },
  {
    sku: "charger-portabel",
    title: "Charger Portabel Motor Listrik 72V",
    category: "Aksesori",
    city: "Surabaya",
    price: 1_150_000,
    discount: 10,
    discountType: "%",
    rating: 70,
    sold: 128,
    weightGram: 2_000,
    images: 1,
    kind: "charger",
    description: "Pengisian 6 jam, pengaman hubung singkat.",
  },
  {
    sku: "helm-sni",
    title: "Helm SNI Half Face Edisi Kendaraan Listrik",
    category: "Aksesori",
    city: "Tangerang",
    price: 350_000,
    rating: 83,
    sold: 2_870,
    weightGram: 1_200,
    minimumPurchase: 2,
    images: 1,
    kind: "helmet",
    description: "Berstandar SNI. Minimal pembelian 2 helm (pengendara dan pembonceng).",
  },
  {
    sku: "kabel-type2",
    title: "Kabel Pengisian Type 2 ke Type 2 Sepanjang 5 m",
    category: "Aksesori",
    city: "Makassar",
    price: 3_400_000,
    rating: null,
    sold: 0,
    weightGram: 3_500,
    images: 0,
    kind: "charger",
    description: "Arus maksimum 32 A, tiga fase.",
  },
  {
    sku: "stop-kontak-pintar",
    title: "Stop Kontak Pintar Wi-Fi",
    category: "Aksesori",
    city: "Jakarta Selatan",
    price: 225_000,
    rating: 60,
    sold: 3,
    weightGram: 300,
    images: 1,
    kind: "battery",
    // Hostile text, as an importer might receive it: the page must show it as inert text.
    description:
      'Pantau pemakaian listrik dari ponsel. <script>document.title="XSS"; window.__xss = 1</script>\n<img src=x onerror="window.__xss = 1">\nPanduan: javascript:window.__xss=1 dan data:text/html,<b>x</b>\nResmi: https://www.pln.co.id/stop-kontak?ref=toko&x="onmouseover=alert(1)',
  },
];

export type DemoBanner = BannerArtwork & { code: string; title: string };

const DEMO_BANNERS: DemoBanner[] = [
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

const cardFile = (sku: string, i: number) => `p-${sku}-${i + 1}-card-v${ARTWORK_VERSION}.webp`;
const detailFile = (sku: string, i: number) => `p-${sku}-${i + 1}-detail-v${ARTWORK_VERSION}.webp`;
const bannerFile = (code: string) => `b-${code}-v${ARTWORK_VERSION}.webp`;

/** Where media files live: DATA_DIR/media (served by routes/media.ts). */
export function mediaDir(): string {
  return path.join(env().dataDir, "media");
}

/**
 * Seeds the demo catalogue. `media: false` skips drawing the image files (unit tests need only the
 * rows); the rows always name the files.
 */
export async function seedDemoCatalogue(db: Db, options: { media?: boolean } = {}) {
  if (options.media !== false) await drawDemoMedia(mediaDir());
  await db.transaction(async (tx) => {
    await tx
      .insert(categories)
      .values(DEMO_CATEGORIES.map((title, position) => ({ title, position })))
      .onConflictDoNothing();
    await tx
      .insert(cities)
      .values(DEMO_CITIES.map((name) => ({ name })))
      .onConflictDoNothing();
    await tx
      .insert(promos)
      .values(Object.entries(DEMO_PROMOS).map(([code, promo]) => ({ code, ...promo })))
      .onConflictDoNothing();
    await tx
      .insert(banners)
      .values(
        DEMO_BANNERS.map((b, position) => ({
          code: b.code,
          title: b.title,
          imageUrl: `/media/${bannerFile(b.code)}`,
          ...BANNER_SIZE,
          position,
          target: DEMO_BANNER_LINKS[b.code] ?? null,
        })),
      )
      .onConflictDoNothing();
    // Banners seeded before they carried their target get it once (an operator's later change stays).
    for (const [code, target] of Object.entries(DEMO_BANNER_LINKS)) {
      await tx
        .update(banners)
        .set({ target })
        .where(and(eq(banners.code, code), isNull(banners.target)));
    }

    // Rows seeded by an earlier artwork version point at its files: move them to this version's.
    const versioned = (column: AnyPgColumn) => sql`regexp_replace(${column}, '-v[0-9]+\.webp$', ${`-v${ARTWORK_VERSION}.webp`})`;
    await tx
      .update(productImages)
      .set({ cardUrl: versioned(productImages.cardUrl), detailUrl: versioned(productImages.detailUrl) })
      .where(and(like(productImages.cardUrl, "/media/p-%"), not(like(productImages.cardUrl, `%-v${ARTWORK_VERSION}.webp`))));
    await tx
      .update(banners)
      .set({ imageUrl: versioned(banners.imageUrl) })
      .where(and(like(banners.imageUrl, "/media/b-%"), not(like(banners.imageUrl, `%-v${ARTWORK_VERSION}.webp`))));

    const categoryIds = new Map(
      (
        await tx
          .select()
          .from(categories)
          .where(inArray(categories.title, [...DEMO_CATEGORIES]))
      ).map((c) => [c.title, c.id]),
    );
    const cityIds = new Map(
      (
        await tx
          .select()
          .from(cities)
          .where(inArray(cities.name, [...DEMO_CITIES]))
      ).map((c) => [c.name, c.id]),
    );
    const promoIds = new Map(
      (
        await tx
          .select({ id: promos.id, code: promos.code })
          .from(promos)
          .where(inArray(promos.code, Object.keys(DEMO_PROMOS)))
      ).map((p) => [p.code, p.id]),
    );

    for (const product of DEMO_PRODUCTS) {
      const [inserted] = await tx
        .insert(products)
        .values({
          sku: product.sku,
          title: product.title,
          description: product.description,
          price: product.price,
          discount: product.discount ?? 0,
          discountType: product.discountType ?? "v",
          ratingPercentage: product.rating ?? null,
          sellCount: product.sold ?? 0,
          viewCount: product.views ?? 0,
          cityId: cityIds.get(product.city)!,
          categoryId: categoryIds.get(product.category)!,
          condition: "Baru",
          weightGram: product.weightGram,
          minimumPurchase: product.minimumPurchase ?? 1,
          orderable: product.orderable === false ? 0 : 1,
          stock: demoStockOf(product),
          status: "tayang",
        })
        .onConflictDoNothing()
        .returning({ id: products.id });
      if (!inserted) {
        // Seeded before products had a stock: give it its demo stock once. A product that sold out
        // through real orders keeps its 0.
        if (demoStockOf(product) > 0) {
          await tx
            .update(products)
            .set({ stock: demoStockOf(product) })
            .where(
              and(
                eq(products.sku, product.sku),
                eq(products.stock, 0),
                sql`not exists (select 1 from ${orders} where ${orders.productId} = ${products.id})`,
              ),
            );
        }
        continue;
      }
      if (product.images) {
        await tx.insert(productImages).values(
          Array.from({ length: product.images }, (_, i) => ({
            productId: inserted.id,
            position: i,
            cardUrl: `/media/${cardFile(product.sku, i)}`,
            cardWidth: CARD_SIZE.width,
            cardHeight: CARD_SIZE.height,
            detailUrl: `/media/${detailFile(product.sku, i)}`,
            detailWidth: DETAIL_SIZE.width,
            detailHeight: DETAIL_SIZE.height,
          })),
        );
      }
      if (product.promos?.length) {
        await tx
          .insert(productPromos)
          .values(product.promos.map((code) => ({ productId: inserted.id, promoId: promoIds.get(code)! })))
          .onConflictDoNothing();
      }
    }
  });
  invalidateCatalogueCache();
}

/** The id of a demo product by its sku (tests and scripts). */
export async function demoProductId(db: Db, sku: string): Promise<number> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.sku, sku));
  if (!row) throw new Error(`demo product ${sku} is not seeded`);
  return row.id;
}

const PICTURE_CAPTIONS = ["", "Tampak samping", "Detail"];

/**
 * The demo images drawn by the build beside the server bundle, like the prepared database (decision
 * 0012). A first start copies them: drawing them itself (librsvg, fontconfig and libvips) would
 * keep about 30 MB of the server's memory for as long as it runs.
 */
const preparedMediaFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "demo-media");

/** Draws the prepared demo images (the build: react-router.config.ts). */
export async function writePreparedDemoMedia() {
  await drawDemoMedia(preparedMediaFolder, { prepared: null });
}

/**
 * Puts every demo image that is not on disk yet into `dir`: a copy of the prepared one when the
 * build drew it, else drawn here (two at a time: the machine has two cores).
 */
export async function drawDemoMedia(dir: string, { prepared = preparedMediaFolder }: { prepared?: string | null } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  // Pictures of an older artwork version are no longer named by any row.
  for (const file of fs.readdirSync(dir)) {
    const version = /^[pb]-[a-z0-9-]+-v(\d+)\.webp$/.exec(file)?.[1];
    if (version && Number(version) !== ARTWORK_VERSION) fs.rmSync(path.join(dir, file), { force: true });
  }
  // Seeding runs at every start: a picture already there is kept. A new one is written through a
  // temporary name, so a crash never leaves half a file behind.
  const copyOrDraw = async (file: string, svg: () => string, quality: number) => {
    const target = path.join(dir, file);
    if (fs.existsSync(target)) return;
    const source = prepared && path.join(prepared, file);
    const bytes = source && fs.existsSync(source) ? fs.readFileSync(source) : await webpOf(svg(), quality);
    const temporary = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, bytes);
    fs.renameSync(temporary, target);
  };
  const jobs: (() => Promise<void>)[] = [];
  for (const product of DEMO_PRODUCTS) {
    const { colour, accent } = COLOURS[product.category];
    for (let i = 0; i < product.images; i++) {
      // Later pictures of a product use a shifted colour, so the slider visibly changes.
      const art = {
        kind: product.kind,
        colour: i === 0 ? colour : shade(colour, i),
        accent,
        title: product.title ?? "",
        caption: PICTURE_CAPTIONS[i],
      };
      jobs.push(() => copyOrDraw(cardFile(product.sku, i), () => productSvg(art, CARD_SIZE), 72));
      jobs.push(() => copyOrDraw(detailFile(product.sku, i), () => productSvg(art, DETAIL_SIZE), 78));
    }
  }
  for (const banner of DEMO_BANNERS) jobs.push(() => copyOrDraw(bannerFile(banner.code), () => bannerSvg(banner), 80));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all([worker(), worker()]);
}

/** A darker variant of a #rrggbb colour. */
function shade(hex: string, step: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const f = 1 - 0.18 * step;
  const channel = (shift: number) => Math.round(((n >> shift) & 255) * f);
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, "0")).join("")}`;
}
