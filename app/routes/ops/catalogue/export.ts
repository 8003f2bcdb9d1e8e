import { Readable } from "node:stream";
import { exportCatalogueCsv } from "~/.server/store/catalogue";

// /ops/catalogue/export (issue 26 item 7): the catalogue as CSV in the import's columns, streamed as
// it is read (export → import changes nothing).
export function loader() {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date());
  return new Response(Readable.toWeb(exportCatalogueCsv()) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="katalog-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
