import { loadSharp } from "../sharp";
import { BANNER_SIZE } from "../store/catalogue";

// Demo images, drawn as SVG and encoded to WebP with sharp at seed time (no binary files in the
// repository): a coloured background, a simple drawing of the product kind, and its title.

export type ArtworkKind =
  "motor" | "car" | "bike" | "stove" | "charger" | "solar" | "battery" | "helmet" | "cookware" | "tricycle" | "appliance";

// The sizes are the catalogue's own (store/catalogue/photos.ts): the demo draws at the sizes the store serves.
export { BANNER_SIZE, CARD_SIZE, DETAIL_SIZE } from "../store/catalogue";

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** Drawings in a 240×150 box, white strokes on the background colour. */
function drawing(kind: ArtworkKind, accent: string): string {
  const wheel = (cx: number, cy: number, r: number) =>
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#263238"/><circle cx="${cx}" cy="${cy}" r="${r * 0.45}" fill="#cfd8dc"/>`;
  switch (kind) {
    case "motor":
      return `${wheel(55, 118, 26)}${wheel(192, 118, 26)}
        <path d="M175 96 L192 118" stroke="#cfd8dc" stroke-width="8" stroke-linecap="round"/>
        <path d="M28 100 Q30 62 88 60 L128 60 Q138 62 132 80 L116 100 Z" fill="#fff"/>
        <rect x="100" y="94" width="70" height="12" rx="5" fill="#fff"/>
        <path d="M150 106 L162 38 L182 38 L178 106 Z" fill="${accent}"/>
        <rect x="56" y="48" width="66" height="14" rx="7" fill="#37474f"/>
        <path d="M150 34 L196 28" stroke="#37474f" stroke-width="8" stroke-linecap="round"/>
        <circle cx="186" cy="48" r="6" fill="#ffd200"/>`;
    case "car":
      return `<path d="M20 105 Q20 80 45 76 L75 48 Q85 40 100 40 L160 40 Q175 40 185 50 L210 76 Q232 80 232 100 L232 112 L20 112 Z" fill="#fff"/>
        <path d="M84 54 L100 48 L140 48 L140 76 L66 76 Z" fill="${accent}" opacity=".75"/>
        <path d="M148 48 L162 48 Q172 48 180 56 L196 76 L148 76 Z" fill="${accent}" opacity=".75"/>
        ${wheel(70, 114, 22)}${wheel(186, 114, 22)}
        <rect x="212" y="88" width="16" height="8" rx="3" fill="#ffd200"/>`;
    case "bike":
      return `${wheel(60, 110, 32)}${wheel(185, 110, 32)}
        <path d="M60 110 L105 60 L165 60 L185 110 M105 60 L125 110 L165 60 M100 48 L118 48 M160 60 L170 36 L188 36" fill="none" stroke="#fff" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>
        <rect x="112" y="64" width="40" height="18" rx="5" fill="${accent}"/>`;
    case "tricycle":
      return `${wheel(48, 118, 22)}${wheel(150, 118, 22)}${wheel(205, 118, 22)}
        <rect x="120" y="44" width="112" height="62" rx="8" fill="#fff"/>
        <rect x="130" y="54" width="92" height="20" rx="4" fill="${accent}"/>
        <path d="M48 118 L80 80 L120 96 M80 80 L88 52 L104 52" fill="none" stroke="#fff" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>`;
    case "stove":
      return `<rect x="20" y="40" width="200" height="80" rx="12" fill="#263238"/>
        <circle cx="80" cy="80" r="28" fill="none" stroke="${accent}" stroke-width="6"/><circle cx="80" cy="80" r="12" fill="none" stroke="${accent}" stroke-width="4"/>
        <circle cx="160" cy="80" r="28" fill="none" stroke="${accent}" stroke-width="6"/><circle cx="160" cy="80" r="12" fill="none" stroke="${accent}" stroke-width="4"/>
        <rect x="20" y="122" width="200" height="12" rx="4" fill="#fff"/>
        <circle cx="200" cy="128" r="3" fill="#ff5252"/>`;
    case "charger":
      return `<rect x="60" y="20" width="90" height="120" rx="14" fill="#fff"/>
        <path d="M110 40 L88 82 L106 82 L98 118 L124 70 L106 70 Z" fill="${accent}"/>
        <path d="M150 110 Q200 110 200 70 Q200 40 225 40" fill="none" stroke="#263238" stroke-width="8" stroke-linecap="round"/>
        <rect x="214" y="28" width="22" height="26" rx="5" fill="#263238"/>`;
    case "solar":
      return `<circle cx="205" cy="34" r="20" fill="#ffd200"/>
        <path d="M30 120 L70 50 L200 50 L170 120 Z" fill="#1a3a5c" stroke="#fff" stroke-width="4"/>
        <path d="M63 62 L192 62 M56 75 L186 75 M48 88 L180 88 M40 102 L175 102 M100 50 L80 120 M135 50 L120 120 M170 50 L150 120" stroke="#fff" stroke-width="2" opacity=".8"/>
        <path d="M100 120 L100 140 M140 120 L140 140" stroke="#fff" stroke-width="6"/>`;
    case "battery":
      return `<rect x="40" y="35" width="160" height="95" rx="12" fill="#fff"/>
        <rect x="70" y="24" width="24" height="14" rx="3" fill="#263238"/><rect x="146" y="24" width="24" height="14" rx="3" fill="#263238"/>
        <path d="M125 48 L100 88 L118 88 L110 118 L140 76 L122 76 Z" fill="${accent}"/>`;
    case "helmet":
      return `<path d="M40 110 Q40 30 125 30 Q205 30 210 100 L210 112 L40 112 Z" fill="#fff"/>
        <path d="M120 62 Q190 62 205 96 L120 96 Z" fill="${accent}" opacity=".8"/>
        <rect x="35" y="110" width="180" height="10" rx="5" fill="#263238"/>`;
    case "cookware":
      return `<path d="M50 60 L190 60 L180 130 Q178 138 170 138 L70 138 Q62 138 60 130 Z" fill="#eceff1"/>
        <rect x="40" y="52" width="160" height="12" rx="6" fill="#fff"/>
        <path d="M200 58 L232 50" stroke="#263238" stroke-width="10" stroke-linecap="round"/>
        <path d="M100 36 Q110 24 100 12 M130 36 Q140 24 130 12" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/>
        <rect x="60" y="90" width="120" height="8" fill="${accent}"/>`;
    case "appliance":
      return `<rect x="65" y="15" width="110" height="130" rx="12" fill="#fff"/>
        <rect x="80" y="30" width="80" height="60" rx="6" fill="${accent}" opacity=".8"/>
        <circle cx="95" cy="115" r="9" fill="#263238"/><circle cx="125" cy="115" r="9" fill="#263238"/>
        <rect x="142" y="108" width="20" height="14" rx="3" fill="#263238"/>`;
  }
}

/** Splits a title into at most `lines` lines of about `width` characters (the last one cut with …). */
function wrap(text: string, width: number, lines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && (line + " " + word).length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  if (out.length > lines) {
    out.length = lines;
    out[lines - 1] = `${out[lines - 1]!.slice(0, width - 1)}…`;
  }
  return out;
}

const FONT = `font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"`;

export type ProductArtwork = { kind: ArtworkKind; colour: string; accent: string; title: string; caption?: string };

/** A product picture at `size`: drawing in the upper part, the title below. */
export function productSvg(art: ProductArtwork, size: { width: number; height: number }): string {
  const { width, height } = size;
  const scale = Math.min(width / 300, (height * 0.62) / 150);
  const dx = (width - 240 * scale) / 2;
  const dy = height * 0.1;
  const fontSize = Math.round(width / 17);
  const lines = wrap(art.title, Math.floor(width / (fontSize * 0.66)), 2);
  const textTop = dy + 150 * scale + fontSize * 1.5;
  const text = lines
    .map(
      (line, i) =>
        `<text x="${width / 2}" y="${Math.round(textTop + i * fontSize * 1.2)}" ${FONT} font-size="${fontSize}" font-weight="700" fill="#fff" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join("");
  const caption = art.caption
    ? `<text x="${width - 16}" y="${Math.round(fontSize * 1.2)}" ${FONT} font-size="${Math.round(fontSize * 0.7)}" fill="#fff" text-anchor="end" opacity=".9">${escapeXml(art.caption)}</text>`
    : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${art.colour}"/><stop offset="1" stop-color="#0d2b45"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <circle cx="${width * 0.85}" cy="${height * 0.2}" r="${width * 0.3}" fill="#fff" opacity=".07"/>
    <g transform="translate(${dx.toFixed(1)} ${dy.toFixed(1)}) scale(${scale.toFixed(3)})">${drawing(art.kind, art.accent)}</g>
    ${text}${caption}
  </svg>`;
}

export type BannerArtwork = { colour: string; accent: string; kind: ArtworkKind; headline: string; subline: string };

export function bannerSvg(art: BannerArtwork): string {
  const { width, height } = BANNER_SIZE;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${art.colour}"/><stop offset="1" stop-color="#0d2b45"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <circle cx="500" cy="150" r="150" fill="#fff" opacity=".08"/>
    <g transform="translate(384 82) scale(0.95)">${drawing(art.kind, art.accent)}</g>
    <text x="44" y="108" ${FONT} font-size="36" font-weight="700" fill="#fff">${escapeXml(art.headline)}</text>
    <text x="44" y="152" ${FONT} font-size="24" fill="#fff" opacity=".92">${escapeXml(art.subline)}</text>
    <rect x="44" y="182" width="236" height="50" rx="25" fill="${art.accent}"/>
    <text x="162" y="215" ${FONT} font-size="23" font-weight="700" fill="#0d2b45" text-anchor="middle">Belanja Sekarang</text>
  </svg>`;
}

/** The SVG drawn and encoded as WebP. */
export async function webpOf(svg: string, quality: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).webp({ quality, effort: 4 }).toBuffer();
}
