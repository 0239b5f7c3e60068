/**
 * A deterministic placeholder portrait (PNG) for a demo driver: a head and shoulders in colours chosen
 * from the seed number. It is NOT a face anyone could be recognised by: the demo seed gives drivers
 * without a photo this placeholder so the face warehouse has rows on `npm start` (server/seed/face-warehouse.ts).
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

type Rgb = readonly [number, number, number];
const BACKGROUNDS: readonly Rgb[] = [[214, 228, 240], [226, 236, 220], [240, 228, 214], [232, 222, 238], [220, 232, 232]];
const SKIN: readonly Rgb[] = [[241, 204, 170], [224, 182, 140], [198, 150, 110], [236, 196, 160]];
const HAIR: readonly Rgb[] = [[40, 32, 28], [70, 50, 36], [24, 24, 24], [96, 72, 50]];
const SHIRT: readonly Rgb[] = [[44, 88, 150], [60, 120, 90], [120, 60, 60], [80, 80, 96], [30, 110, 130]];

/** Drawn portraits by palette (400 palettes at most): a seed of 100,000 vehicles draws each once. */
const drawn = new Map<string, Buffer>();

/** A `size`×`size` PNG for `seed` (same seed, same bytes). */
export function placeholderPortrait(seed: number, size = 96): Buffer {
  const at = (length: number, salt: number) => ((Math.imul(seed, 2654435761) + Math.imul(salt, 40503)) >>> 0) % length;
  const key = [at(BACKGROUNDS.length, 1), at(SKIN.length, 2), at(HAIR.length, 3), at(SHIRT.length, 4), size].join();
  let png = drawn.get(key);
  if (!png) drawn.set(key, (png = draw(BACKGROUNDS[at(BACKGROUNDS.length, 1)]!, SKIN[at(SKIN.length, 2)]!, HAIR[at(HAIR.length, 3)]!, SHIRT[at(SHIRT.length, 4)]!, size)));
  return png;
}

function draw(bg: Rgb, skin: Rgb, hair: Rgb, shirt: Rgb, size: number): Buffer {
  const cx = size / 2, headY = size * 0.42, headR = size * 0.22;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      let c: Rgb = bg;
      const dx = x - cx, dy = y - headY;
      const inHead = (dx * dx) / (headR * headR * 0.8) + (dy * dy) / (headR * headR) <= 1;
      // Shoulders: the top half of a wide ellipse under the head.
      const sy = y - size * 1.02, sx = x - cx;
      if ((sx * sx) / (size * size * 0.16) + (sy * sy) / (size * size * 0.18) <= 1) c = shirt;
      if (inHead) {
        c = skin;
        if (dy < -headR * 0.45) c = hair;
        const eye = (ex: number) => (x - ex) ** 2 + (y - (headY - headR * 0.05)) ** 2 <= (size * 0.018) ** 2;
        if (eye(cx - headR * 0.38) || eye(cx + headR * 0.38)) c = [30, 30, 30];
        if (Math.abs(dx) < headR * 0.3 && Math.abs(y - (headY + headR * 0.5)) < size * 0.008) c = [150, 70, 70];
      }
      raw[row + 1 + x * 3] = c[0];
      raw[row + 2 + x * 3] = c[1];
      raw[row + 3 + x * 3] = c[2];
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0)),
  ]);
}
