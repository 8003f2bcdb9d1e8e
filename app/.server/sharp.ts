/**
 * sharp (libvips), loaded on first use: most processes never decode an image (a server without
 * uploads since its start, the ops CLI), and loading libvips maps about 7 MB and allocates its
 * caches up front (decision 0012). Configured for a server: no operation cache (every upload is
 * different, and the cache would keep up to 50 MB), one worker thread per operation (requests
 * already run side by side; each libvips thread keeps buffers and a malloc arena of its own).
 */
async function load() {
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
}

let loaded: ReturnType<typeof load> | undefined;

export function loadSharp() {
  loaded ??= load();
  return loaded;
}
