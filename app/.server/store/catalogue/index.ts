// The catalogue domain: products, their pages and details, categories, cities, banners, the read cache,
// search history, and the back office's side of all of it (issue 26): product editing with its
// history, photos, promos, banners, categories and cities, the CSV import and export.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  getProductDetail,
  isPublished,
  promoIsValid,
  listProductPages,
  listProducts,
  type ProductImage,
  type ProductListItem,
  type ProductPage,
} from "./catalogue";
export { cleanHistory, clearSearchHistory, listSearchHistory, mergeSearchHistory, pushKeyword, recordSearch } from "./search-history";
export {
  getProductForOps,
  listProductHistory,
  listProductsForOps,
  PRODUCT_CONFLICT,
  productFormChoices,
  saveProduct,
  type HistoryEntry,
  type OpsProduct,
  type OpsProductRow,
  type ProductFormErrors,
  type ProductFormFields,
} from "./products-admin";
export {
  addProductPhotos,
  BANNER_SIZE,
  CARD_SIZE,
  changeProductPhoto,
  DETAIL_SIZE,
  getCatalogueImage,
  IMAGE_PATH,
  PHOTO_MAX_BYTES,
  PHOTOS_PER_UPLOAD,
  type PhotoMove,
} from "./photos";
export { invalidateCatalogueCache } from "./cache";
export { listPromosForOps, savePromo, toWibInput, type OpsPromo, type PromoField } from "./promos";
export { addBanner, type Banner, changeBanner, listBanners, listBannersForOps, type BannerField, type OpsBanner } from "./banners";
export {
  changeTaxonomy,
  listCategories,
  listCities,
  listTaxonomy,
  type TaxonomyChange,
  type TaxonomyItem,
  type TaxonomyKind,
} from "./taxonomy";
export {
  applyCatalogueCsv,
  CATALOGUE_COLUMNS,
  exportCatalogueCsv,
  importSummary,
  previewCatalogueCsv,
  type CsvPlan,
} from "./catalogue-csv";
export {
  applyPhotoZip,
  keptPhotoZipPlan,
  photosAsZip,
  photoZipSummary,
  PHOTO_ZIP_MAX_BYTES,
  PHOTO_ZIP_MAX_ENTRIES,
  previewPhotoZip,
  type PhotoZipPlan,
} from "./photo-zip";
export { syncCatalogueVersion } from "./version";
