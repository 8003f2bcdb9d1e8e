import fs from "node:fs";
import path from "node:path";

// A tar stream of a directory, read file by file in small chunks (the backup of a PGlite data
// directory, backup.ts): the same archive as PGlite's own dumpDataDir builds in memory (POSIX ustar,
// entry names '/base/1/1259' relative to the directory with a leading slash, directories as entries
// of their own), which PGlite's loadDataDir (and GNU tar) reads back.

const BLOCK = 512;
const CHUNK = 256 * 1024;

/** The archive's bytes: a header per entry, each file's bytes padded to 512, two zero blocks to end. */
export async function* dataDirTar(root: string): AsyncGenerator<Buffer> {
  for (const entry of walk(root, "")) {
    const file = path.join(root, entry);
    const stat = fs.statSync(file);
    if (stat.isDirectory()) {
      yield header(entry, stat, "5", 0);
      continue;
    }
    if (!stat.isFile()) continue;
    // The header's size is what the entry holds: a file that grew is cut there, one that shrank is
    // filled with zeros (neither happens here: the caller holds the database still).
    const size = stat.size;
    yield header(entry, stat, "0", size);
    const handle = await fs.promises.open(file, "r");
    try {
      for (let done = 0; done < size;) {
        const buffer = Buffer.alloc(Math.min(CHUNK, size - done));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, done);
        if (bytesRead === 0) {
          for (let left = size - done; left > 0; left -= CHUNK) yield Buffer.alloc(Math.min(CHUNK, left));
          break;
        }
        done += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (padding) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Every entry under `root` as '/a', '/a/b', parents before their children. */
function* walk(root: string, relative: string): Generator<string> {
  for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
    const entry = `${relative}/${name}`;
    yield entry;
    if (fs.statSync(path.join(root, entry)).isDirectory()) yield* walk(root, entry);
  }
}

/** A ustar header: name (≤ 100 bytes: a PostgreSQL data directory's paths are far shorter), octal numbers, checksum. */
function header(name: string, stat: fs.Stats, type: "0" | "5", size: number): Buffer {
  const bytes = Buffer.byteLength(name);
  if (bytes > 100) throw new Error(`tar: the path ${name} is longer than 100 bytes`);
  const block = Buffer.alloc(BLOCK);
  const octal = (value: number, width: number, offset: number) =>
    block.write(`${value.toString(8).padStart(width - 1, "0")}\0`, offset, width, "ascii");
  block.write(name, 0, 100, "utf8");
  octal(stat.mode & 0o7777, 8, 100);
  octal(0, 8, 108);
  octal(0, 8, 116);
  octal(size, 12, 124);
  octal(Math.floor(stat.mtimeMs / 1000), 12, 136);
  block.fill(" ", 148, 156);
  block.write(type, 156, 1, "ascii");
  block.write("ustar\u000000", 257, 8, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return block;
}
