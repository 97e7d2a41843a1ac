import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { DocumentFonts } from "./fonts.ts";

/**
 * fontkit (pdfkit's own font engine) parses a font once per bytes: parsing Noto Sans Devanagari and
 * building its shaping tables on every document cost most of a render (about half a second for a
 * Nepali receipt, measured), and pdfkit takes a parsed font as it takes bytes.
 */
const fontkit = createRequire(import.meta.url)("fontkit") as { create(data: Buffer): unknown };
const parsedFonts = new WeakMap<Uint8Array, unknown>();
function parsedFont(bytes: Uint8Array): unknown {
  let font = parsedFonts.get(bytes) as { _glyphs?: object } | undefined;
  if (!font) {
    font = fontkit.create(Buffer.from(bytes)) as { _glyphs?: object };
    parsedFonts.set(bytes, font);
  }
  // fontkit keeps each glyph with the characters it was first drawn for, and pdfkit writes those
  // into the copy-text map: a fresh glyph cache per document keeps a document's bytes a function
  // of its data alone (the parsed tables, the costly part, stay).
  font._glyphs = {};
  return font;
}

/**
 * A chat document as a PDF: data in, bytes out (no store, no clock: the creation date is the
 * document's own `at`). A document is a title, lines of text (a receipt: the chat receipt's lines),
 * optional summary lines and an optional table (a statement's movements), and a footer. Every text
 * is set in Noto Sans Devanagari (fonts.ts), so English, Nepali and Hindi read alike; a character
 * the font has no glyph for (an emoji such as 🧾) is left out rather than printed as a box.
 */

export interface TableColumn {
  label: string;
  /** Share of the text width (the shares of a table add up to 1). */
  width: number;
  align?: "left" | "right";
}

export interface DocumentSpec {
  title: string;
  /** Under the title, smaller (who it is for, the period). */
  subtitle?: string;
  lines: readonly string[];
  table?: { columns: readonly TableColumn[]; rows: readonly (readonly string[])[] };
  /** After the table, bold (a statement's closing balance). */
  closing?: readonly string[];
  footer?: string;
  /** The document's date (its PDF creation date), milliseconds since the epoch. */
  at: number;
  /** The PDF's language tag (en, ne, hi). */
  lang: string;
  size?: "A4" | "A5";
}

const MARGIN = 40;

type Doc = InstanceType<typeof PDFDocument>;

/** Drops what the font cannot draw (emoji, their variation selectors), keeps the rest. */
function printable(doc: Doc, text: string): string {
  const font = (doc as unknown as { _font: { font: FontkitFont } })._font.font;
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === "\n" || ch === " " || font.hasGlyphForCodePoint(cp)) out += ch;
  }
  return out.replace(/ {2,}/g, " ").trim();
}

interface FontkitFont {
  hasGlyphForCodePoint(cp: number): boolean;
}

function drawTable(doc: Doc, table: NonNullable<DocumentSpec["table"]>) {
  const width = doc.page.width - 2 * MARGIN;
  const row = (cells: readonly string[], bold: boolean) => {
    doc.font(bold ? "bold" : "regular").fontSize(8);
    const heights = cells.map((c, i) =>
      doc.heightOfString(printable(doc, c), { width: width * (table.columns[i]?.width ?? 0) - 4 }),
    );
    const h = Math.max(...heights, 10) + 4;
    if (doc.y + h > doc.page.height - MARGIN) doc.addPage();
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((c, i) => {
      const col = table.columns[i];
      if (!col) return;
      doc.text(printable(doc, c), x, y, {
        width: width * col.width - 4,
        align: col.align ?? "left",
      });
      x += width * col.width;
    });
    doc.x = MARGIN;
    doc.y = y + h;
  };
  row(
    table.columns.map((c) => c.label),
    true,
  );
  doc
    .moveTo(MARGIN, doc.y - 2)
    .lineTo(doc.page.width - MARGIN, doc.y - 2)
    .stroke("#999999");
  for (const r of table.rows) row(r, false);
}

/** The document as PDF bytes. */
export async function renderPdf(spec: DocumentSpec, fonts: DocumentFonts): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: spec.size ?? "A5",
    margin: MARGIN,
    lang: spec.lang,
    info: { Title: spec.title, Creator: "recharge-assistant", CreationDate: new Date(spec.at) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve());
    doc.on("error", reject);
  });
  doc.registerFont("regular", parsedFont(fonts.regular) as Buffer);
  doc.registerFont("bold", parsedFont(fonts.bold) as Buffer);
  doc.font("bold").fontSize(15).text(printable(doc, spec.title));
  if (spec.subtitle) doc.font("regular").fontSize(9).fillColor("#555555").text(spec.subtitle);
  doc.fillColor("#000000").moveDown(0.6);
  doc.font("regular").fontSize(11);
  for (const line of spec.lines) doc.text(printable(doc, line), { lineGap: 2 });
  if (spec.table) {
    doc.moveDown(0.6);
    drawTable(doc, spec.table);
  }
  if (spec.closing?.length) {
    doc.moveDown(0.6).font("bold").fontSize(11);
    for (const line of spec.closing) doc.text(printable(doc, line), MARGIN);
  }
  if (spec.footer) {
    doc.moveDown(1).font("regular").fontSize(8).fillColor("#555555");
    doc.text(printable(doc, spec.footer), MARGIN);
  }
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}
