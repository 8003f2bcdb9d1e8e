import { parse } from "csv-parse";
import { hasControlCharacter } from "~/lib/control-characters";

// The CSV files operators upload (issues 26 and 27: the catalogue's price list, the HR roster): ONE
// reader for both. UTF-8 (a byte-order mark is dropped), comma or semicolon (Excel in Indonesia
// writes ';'), a header row naming the columns in any order and case. Rows come one at a time with
// their line number in the file (the header is line 1), so an importer reports 'Baris 4: …' and
// never holds a second copy of the file. What a row means is the importer's business; this module
// only says what is wrong with the file itself.

export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_MAX_ROWS = 20_000;

export const CSV_EMPTY = "File CSV kosong.";
export const CSV_NOT_TEXT = "File harus berupa CSV, bukan file lain. Dari Excel: pilih Simpan Sebagai, lalu jenis file CSV.";
export const csvTooLarge = (maxBytes: number) => `File CSV terlalu besar (maksimal ${Math.round(maxBytes / 1024 / 1024)} MB).`;
export const csvTooManyRows = (maxRows: number) =>
  `File CSV terlalu banyak baris (maksimal ${maxRows.toLocaleString("id-ID")} baris data).`;
export const csvMissingColumns = (names: string[]) => `Kolom wajib tidak ada: ${names.join(", ")}.`;
export const csvUnknownColumns = (names: string[]) => `Kolom tidak dikenal: ${names.join(", ")}.`;
export const csvDuplicateColumns = (names: string[]) => `Kolom ganda: ${names.join(", ")}.`;
export const csvBroken = (line: number) => `Baris ${line}: format CSV rusak (periksa tanda kutip dan jumlah kolom).`;
export const CSV_FORMULA = "Nilai tidak boleh diawali =, +, - atau @.";

/** 'Baris 4: Harga harus lebih dari 0.' */
export const rowMessage = (line: number, message: string) => `Baris ${line}: ${message}`;

export type CsvFileError = { ok: false; message: string };
export type CsvRow<C extends string> = { line: number; values: Record<C, string> };
export type CsvReader<C extends string> = { ok: true; delimiter: "," | ";"; columns: C[]; rows: AsyncIterable<CsvRow<C>> };

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab/CR before them). Importers refuse
 * such text (CSV_FORMULA); exports quote it (csvSafeCell).
 */
export const looksLikeFormula = (value: string) => /^[=+\-@\t\r]/.test(value);

/**
 * Where a spreadsheet may start a new cell inside our one cell: a separator (',' ';' — Excel in
 * Indonesia splits on ';' — or a tab) or a line break. `Budi;=cmd|' /C calc'!A0` is one name to us
 * and two cells to Excel, the second one a formula.
 */
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n])([=+\-@])/g;
/** The same spot as csvSafeCell wrote it (an apostrophe after the separator), for importers reading an export back. */
const NEUTRALISED_AFTER_SEPARATOR = /([,;\t\r\n])'([=+\-@])/g;

/**
 * For csv-stringify's `cast.string`: a formula-like cell is written with a leading apostrophe, and
 * so is every formula start after a separator or line break inside it (`Budi;'=cmd…`), so that no
 * way of splitting the line makes a formula.
 */
export const csvSafeCell = (value: string) => {
  const inner = value.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
  return looksLikeFormula(inner) ? `'${inner}` : inner;
};

/** What csvSafeCell wrote reads back as it was (the catalogue's import of its own export). */
export const csvUnsafeCell = (value: string) =>
  (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value).replace(NEUTRALISED_AFTER_SEPARATOR, "$1$2");

function firstLine(text: string): string {
  const end = text.search(/\r?\n|\r/);
  return end === -1 ? text : text.slice(0, end);
}

/** The delimiter of the header line: whichever of ';' and ',' appears more often outside quotes. */
function delimiterOf(header: string): "," | ";" {
  const unquoted = header.replace(/"[^"]*"/g, "");
  const count = (ch: string) => unquoted.split(ch).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/** Control characters no spreadsheet writes into a CSV (tab, line feed and carriage return are fine). */
const isBinary = (text: string) => hasControlCharacter(text, { except: "\t\n\r", del: false });

/**
 * An uploaded file's text: UTF-8 (what 'CSV UTF-8' writes), else Windows-1252 — what Excel's plain
 * 'CSV (Comma delimited)' writes on an Indonesian Windows, where 'Rp', '×' or an en dash in a name
 * would otherwise refuse the whole file. Null when it is neither (a picture, a spreadsheet, a PDF).
 */
export function csvText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder("windows-1252").decode(bytes);
    return isBinary(text) ? null : text;
  }
}

/**
 * Opens an uploaded CSV: checks its size, that it is text, and its header against `columns` (every
 * one of `required` present; no unknown or repeated column). The rows are then read one by one; a
 * row with broken quoting or a wrong number of cells, or one past `maxRows`, ends the reading with a
 * CsvFileError thrown from the iterator (catch it with `readAllProblems` or around the loop).
 */
export function openCsv<C extends string>(
  input: Buffer | string,
  options: { columns: readonly C[]; required?: readonly C[]; maxBytes?: number; maxRows?: number },
): CsvReader<C> | CsvFileError {
  const maxBytes = options.maxBytes ?? CSV_MAX_BYTES;
  const maxRows = options.maxRows ?? CSV_MAX_ROWS;
  const size = typeof input === "string" ? Buffer.byteLength(input) : input.length;
  if (size > maxBytes) return { ok: false, message: csvTooLarge(maxBytes) };
  const decoded = typeof input === "string" ? input : csvText(input);
  if (decoded === null) return { ok: false, message: CSV_NOT_TEXT };
  let text = decoded;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\u0000")) return { ok: false, message: CSV_NOT_TEXT };
  if (!text.trim()) return { ok: false, message: CSV_EMPTY };

  const header = firstLine(text);
  const delimiter = delimiterOf(header);
  const names = header.split(delimiter).map((name) => name.trim().replace(/^"|"$/g, "").trim().toLowerCase());
  const known = new Set<string>(options.columns);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) return { ok: false, message: csvUnknownColumns(unknown.map((n) => n || "(kosong)")) };
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  if (repeated.length > 0) return { ok: false, message: csvDuplicateColumns([...new Set(repeated)]) };
  const missing = (options.required ?? options.columns).filter((name) => !names.includes(name));
  if (missing.length > 0) return { ok: false, message: csvMissingColumns(missing) };

  const columns = names as C[];
  async function* rows(): AsyncGenerator<CsvRow<C>> {
    const parser = parse(text, {
      delimiter,
      from_line: 2,
      relax_column_count: false,
      skip_empty_lines: true,
      // A runaway quote would otherwise swallow the rest of the file into one cell.
      max_record_size: 64 * 1024,
      info: true,
    });
    let count = 0;
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (++count > maxRows) throw Object.assign(new Error("too many rows"), { csvMessage: csvTooManyRows(maxRows) });
        if (record.length !== columns.length) throw Object.assign(new Error("columns"), { csvMessage: csvBroken(info.lines) });
        const values = {} as Record<C, string>;
        columns.forEach((column, i) => (values[column] = (record[i] ?? "").trim()));
        yield { line: info.lines, values };
      }
    } catch (error) {
      parser.destroy();
      const message = (error as { csvMessage?: string }).csvMessage ?? csvBroken(lineOf(error) ?? count + 2);
      throw Object.assign(new Error(message), { csvMessage: message });
    }
  }
  return { ok: true, delimiter, columns, rows: rows() };
}

function lineOf(error: unknown): number | null {
  const lines = (error as { lines?: unknown })?.lines;
  return typeof lines === "number" ? lines : null;
}

/** The message of an error thrown while reading rows (a CsvFileError's), or null for any other error. */
export function csvReadError(error: unknown): string | null {
  return (error as { csvMessage?: string })?.csvMessage ?? null;
}
