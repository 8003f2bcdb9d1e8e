// The catalogue domain: products, their pages and details, categories, cities, banners, the read cache, search history.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export { type Banner, getProductDetail, listBanners, listCategories, listCities, listProductPages, listProducts, type ProductImage, type ProductListItem, type ProductPage } from "./catalogue";
export { cleanHistory, clearSearchHistory, listSearchHistory, mergeSearchHistory, pushKeyword, recordSearch } from "./search-history";
