/**
 * Bytes of each chunk: into a buffer given back when one fits, else a new one. Until a buffer
 * has come back, a new one is the text's exact bytes (a reader that keeps the chunks never gives
 * any back, and holds no spare room); after, it has room for somewhat longer pages, to be reused.
 */
export function chunkEncoder() {
  const encoder = new TextEncoder();
  const spare: ArrayBuffer[] = [];
  let reused = false;
  return {
    back(buffer: ArrayBuffer) {
      reused = true;
      spare.push(buffer);
    },
    /** A copy of bytes the caller will overwrite (csv-packed.ts's page), in a spare when it fits. */
    copy(bytes: Uint8Array): Uint8Array {
      const buffer = spare.pop();
      if (buffer && buffer.byteLength >= bytes.length) {
        new Uint8Array(buffer).set(bytes);
        return new Uint8Array(buffer, 0, bytes.length);
      }
      // A spare too small is dropped, as in encode; new room as encode makes it.
      const room = new Uint8Array(reused ? Math.ceil(bytes.length * 1.25) + 1024 : bytes.length);
      room.set(bytes);
      return room.subarray(0, bytes.length);
    },
    encode(text: string): Uint8Array {
      const buffer = spare.pop();
      if (buffer) {
        const { read, written } = encoder.encodeInto(text, new Uint8Array(buffer));
        if (read === text.length) return new Uint8Array(buffer, 0, written);
        // Too small for this page: dropped (its bytes were given back, nobody reads them).
      }
      if (!reused) return encoder.encode(text);
      // At most 3 bytes per UTF-16 unit; journal text is nearly all ASCII, so a quarter more room.
      let room = new Uint8Array(Math.ceil(text.length * 1.25) + 1024);
      let { read, written } = encoder.encodeInto(text, room);
      if (read < text.length) {
        room = new Uint8Array(text.length * 3);
        ({ read, written } = encoder.encodeInto(text, room));
      }
      return room.subarray(0, written);
    },
  };
}
