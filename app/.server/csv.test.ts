import { describe, expect, it } from "vitest";
import { csvReadError, csvSafeCell, csvUnsafeCell, looksLikeFormula, openCsv } from "./csv";

const COLUMNS = ["sku", "nama", "harga"] as const;

async function readAll(input: Buffer | string, options: Partial<Parameters<typeof openCsv>[1]> = {}) {
  const reader = openCsv(input, { columns: COLUMNS, ...options });
  if (!reader.ok) return { error: reader.message };
  const rows = [];
  try {
    for await (const row of reader.rows) rows.push(row);
  } catch (error) {
    return { rows, error: csvReadError(error) };
  }
  return { delimiter: reader.delimiter, rows };
}

describe("openCsv", () => {
  it("reads comma and semicolon files, any column order and case, with line numbers (header = line 1)", async () => {
    expect(await readAll('sku,nama,harga\nA-1,Motor,1000\n\nA-2,"Kompor, Induksi",2500\n')).toEqual({
      delimiter: ",",
      rows: [
        { line: 2, values: { sku: "A-1", nama: "Motor", harga: "1000" } },
        { line: 4, values: { sku: "A-2", nama: "Kompor, Induksi", harga: "2500" } },
      ],
    });
    const excel = "\ufeffHarga;SKU;Nama\r\n1.000;B-1;Sepeda; Listrik\r\n";
    expect(await readAll(excel)).toMatchObject({ error: "Baris 2: format CSV rusak (periksa tanda kutip dan jumlah kolom)." });
    expect(await readAll('\ufeffHarga;SKU;Nama\r\n1.000;B-1;"Sepeda; Listrik"\r\n')).toEqual({
      delimiter: ";",
      rows: [{ line: 2, values: { harga: "1.000", sku: "B-1", nama: "Sepeda; Listrik" } }],
    });
  });

  it("reads Excel's plain 'CSV (Comma delimited)', which is Windows-1252, as well as UTF-8", async () => {
    // 'Kipas Angin 16" – Putih × 2' with an en dash and a multiplication sign, as Excel writes it.
    const ansi = Buffer.concat([
      Buffer.from("sku;nama;harga\r\nK-1;Kipas Angin "),
      Buffer.from([0x96]),
      Buffer.from(" Putih "),
      Buffer.from([0xd7]),
      Buffer.from(" 2;450.000\r\n"),
    ]);
    expect(await readAll(ansi)).toEqual({
      delimiter: ";",
      rows: [{ line: 2, values: { sku: "K-1", nama: "Kipas Angin – Putih × 2", harga: "450.000" } }],
    });
  });

  it("says what is wrong with the file itself", async () => {
    expect(await readAll("")).toEqual({ error: "File CSV kosong." });
    expect(await readAll(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toEqual({
      error: "File harus berupa CSV, bukan file lain. Dari Excel: pilih Simpan Sebagai, lalu jenis file CSV.",
    });
    // A spreadsheet's own format is no CSV, even where no byte is invalid UTF-8 by itself.
    expect(await readAll(Buffer.from("PK\u0003\u0004\u0014\u0000\u0006\u0000", "latin1"))).toEqual({
      error: "File harus berupa CSV, bukan file lain. Dari Excel: pilih Simpan Sebagai, lalu jenis file CSV.",
    });
    expect(await readAll("sku,nama,harga,warna\n")).toEqual({ error: "Kolom tidak dikenal: warna." });
    expect(await readAll("sku,nama\n")).toEqual({ error: "Kolom wajib tidak ada: harga." });
    expect(await readAll("sku,nama\n", { required: ["sku"] })).toMatchObject({ rows: [] });
    expect(await readAll("sku,sku,nama,harga\n")).toEqual({ error: "Kolom ganda: sku." });
    expect(await readAll("x".repeat(2 * 1024 * 1024), { maxBytes: 1024 * 1024 })).toEqual({
      error: "File CSV terlalu besar (maksimal 1 MB).",
    });
    expect(await readAll('sku,nama,harga\nA,"Motor,1\nB,C,2\n')).toMatchObject({
      error: expect.stringMatching(/^Baris \d+: format CSV rusak/),
    });
    const many = "sku,nama,harga\n" + Array.from({ length: 6 }, (_, i) => `S${i},N,1`).join("\n");
    expect(await readAll(many, { maxRows: 5 })).toMatchObject({
      rows: { length: 5 },
      error: "File CSV terlalu banyak baris (maksimal 5 baris data).",
    });
  });

  it("formulas are recognised for importers and neutralised for exports", () => {
    for (const cell of ["=cmd|' /C calc'!A0", "+1", "-2", "@SUM(A1)", "\t=1"]) expect(looksLikeFormula(cell)).toBe(true);
    expect(looksLikeFormula("Motor =listrik")).toBe(false);
    expect(csvSafeCell("=1+1")).toBe("'=1+1");
    expect(csvSafeCell("Motor")).toBe("Motor");
  });

  it("no way of splitting an exported cell (',' ';' tab, line break) leaves a formula (issue 35: Indonesian Excel splits on ';')", () => {
    const hostile = ["Budi;=cmd|' /C calc'!A0", "Budi,+1", "Budi\t@SUM(A1)", "Budi\n-2+3", "Budi\r\n=1", "a;b;=c,=d"];
    for (const cell of hostile) {
      const written = csvSafeCell(cell);
      for (const piece of written.split(/[,;\t\r\n]/)) expect(looksLikeFormula(piece), `${JSON.stringify(cell)} → ${piece}`).toBe(false);
      expect(csvUnsafeCell(written)).toBe(cell);
    }
    expect(csvSafeCell("Motor listrik; baterai 72V")).toBe("Motor listrik; baterai 72V");
  });
});
