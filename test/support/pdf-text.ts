import { inflateSync } from "node:zlib";

/**
 * Reads a PDF the way a reader's "copy text" does, enough for tests: each page's text in drawing
 * order, glyphs mapped back to characters through each font's ToUnicode map (what a PDF viewer
 * searches and copies). Handles what pdfkit writes: Flate streams, Type0 fonts with hex strings in
 * TJ arrays. `ligatures` lists the glyphs that stand for more than one character (shaped
 * Devanagari conjuncts).
 */

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

function objects(pdf: Uint8Array): Map<number, PdfObject> {
  const text = Buffer.from(pdf).toString("latin1");
  const out = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\s*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const from = re.lastIndex;
    const endobj = text.indexOf("endobj", from);
    const s = text.indexOf("stream", from);
    if (s < 0 || (endobj >= 0 && endobj < s)) {
      out.set(Number(m[1]), { dict: text.slice(from, endobj < 0 ? undefined : endobj) });
      continue;
    }
    const dict = text.slice(from, s);
    const start = s + (text[s + 6] === "\r" ? 8 : 7);
    // The stream's bytes by its /Length (pdfkit writes it directly): compressed bytes may end in
    // "\r" or hold "endobj", so neither the EOL before "endstream" nor the next "endobj" bounds them.
    const length = /\/Length (\d+)\b(?! \d+ R)/.exec(dict);
    if (length === null) throw new Error(`object ${m[1]}: a stream without a direct /Length`);
    const stop = start + Number(length[1]);
    let raw = Buffer.from(text.slice(start, stop), "latin1");
    if (/\/FlateDecode/.test(dict)) raw = inflateSync(raw);
    out.set(Number(m[1]), { dict, stream: raw });
    re.lastIndex = stop;
  }
  return out;
}

const hexToUnicode = (spaced: string) => {
  const hex = spaced.replace(/\s+/g, "");
  let s = "";
  for (let i = 0; i + 4 <= hex.length; i += 4)
    s += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return s;
};

function cmapOf(stream: Buffer): Map<number, string> {
  const text = stream.toString("latin1");
  const map = new Map<number, string>();
  for (const block of text.match(/beginbfchar([\s\S]*?)endbfchar/g) ?? []) {
    for (const m of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F ]+)>/g)) {
      map.set(parseInt(m[1] as string, 16), hexToUnicode(m[2] as string));
    }
  }
  for (const block of text.match(/beginbfrange([\s\S]*?)endbfrange/g) ?? []) {
    for (const m of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g)) {
      const from = parseInt(m[1] as string, 16);
      const targets = [...(m[3] as string).matchAll(/<([0-9a-fA-F ]*)>/g)];
      for (const [i, t] of targets.entries()) map.set(from + i, hexToUnicode(t[1] as string));
    }
  }
  return map;
}

export interface PdfText {
  /** Each page's text, a line per text operation that moved down. */
  pages: string[];
  /** All pages' text, joined. */
  text: string;
  /** Glyphs that stand for several characters (a shaped conjunct such as "क्ष"). */
  ligatures: string[];
}

export function pdfText(pdf: Uint8Array): PdfText {
  const objs = objects(pdf);
  const head = Buffer.from(pdf.subarray(0, 5)).toString("latin1");
  if (head !== "%PDF-") throw new Error("not a PDF");
  const cmaps = new Map<number, Map<number, string>>();
  const fontCmap = (fontObj: number) => {
    const d = objs.get(fontObj)?.dict ?? "";
    const ref = /\/ToUnicode (\d+) 0 R/.exec(d);
    if (!ref) return new Map<number, string>();
    const n = Number(ref[1]);
    if (!cmaps.has(n)) cmaps.set(n, cmapOf(objs.get(n)?.stream ?? Buffer.alloc(0)));
    return cmaps.get(n) as Map<number, string>;
  };
  const pages: string[] = [];
  for (const [, o] of objs) {
    if (!/\/Type \/Page\b/.test(o.dict)) continue;
    const resRef = /\/Resources (\d+) 0 R/.exec(o.dict);
    const resources = resRef ? (objs.get(Number(resRef[1]))?.dict ?? "") : o.dict;
    const fonts = new Map<string, number>();
    const fontDict = /\/Font\s*<<([\s\S]*?)>>/.exec(resources)?.[1] ?? "";
    for (const m of fontDict.matchAll(/\/(\w+) (\d+) 0 R/g))
      fonts.set(m[1] as string, Number(m[2]));
    const contentRef = /\/Contents (\d+) 0 R/.exec(o.dict);
    const content = objs.get(Number(contentRef?.[1]))?.stream?.toString("latin1") ?? "";
    let cmap = new Map<number, string>();
    const lines: string[] = [];
    let line = "";
    let lastY: number | undefined;
    const ops =
      /\/(\w+) [\d.]+ Tf|[\d.-]+ [\d.-]+ [\d.-]+ [\d.-]+ ([\d.-]+) ([\d.-]+) Tm|\[((?:<[0-9a-fA-F]*>|[^\]])*)\] TJ/g;
    for (const m of content.matchAll(ops)) {
      if (m[1]) cmap = fontCmap(fonts.get(m[1]) ?? -1);
      else if (m[3] !== undefined) {
        const y = Number(m[3]);
        if (lastY !== undefined && y !== lastY) {
          lines.push(line);
          line = "";
        } else if (lastY !== undefined) line += " ";
        lastY = y;
      } else if (m[4] !== undefined) {
        for (const h of m[4].matchAll(/<([0-9a-fA-F]*)>/g)) {
          const hex = h[1] as string;
          for (let i = 0; i + 4 <= hex.length; i += 4)
            line += cmap.get(parseInt(hex.slice(i, i + 4), 16)) ?? "\uFFFD";
        }
      }
    }
    lines.push(line);
    pages.push(lines.map((l) => l.replace(/ {2,}/g, " ").trim()).join("\n"));
  }
  const ligatures = [...cmaps.values()].flatMap((m) =>
    [...m.values()].filter((s) => [...s].length > 1),
  );
  return {
    pages,
    text: pages.join("\n"),
    ligatures: [...new Set(ligatures)],
  };
}
