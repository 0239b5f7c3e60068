/**
 * H.264 Annex-B helpers for the media path: NAL unit splitting, key-frame detection, access-unit
 * splitting of an elementary stream (the simulator's clips), and SPS parsing for the WebCodecs
 * codec string (avc1.PPCCLL) and the picture size. H.265 is passed through; its key-frame test and
 * SPS (hvc1.* codec string, size) are here too. Pure and never-throwing on data.
 */

/** H.264 NAL unit types used here (ITU-T H.264 table 7-1). */
export const NAL = { SLICE: 1, IDR: 5, SEI: 6, SPS: 7, PPS: 8, AUD: 9 } as const;

/** One NAL unit located in a buffer: `start` is its start code, `payload`..`end` the NAL bytes. */
export interface NalRange {
  start: number;
  payload: number;
  end: number;
}

/**
 * NAL units of an Annex-B buffer (3- or 4-byte start codes). Trailing zero bytes before the next
 * start code are not part of a NAL. Bytes before the first start code are ignored.
 */
export function nalRanges(data: Uint8Array): NalRange[] {
  const out: NalRange[] = [];
  const n = data.length;
  let i = 2;
  let cur: NalRange | undefined;
  while (i < n) {
    i = data.indexOf(1, i);
    if (i < 0) break;
    if (data[i - 1] === 0 && data[i - 2] === 0) {
      const sc = data[i - 3] === 0 && i >= 3 ? i - 3 : i - 2;
      if (cur) {
        cur.end = trimZeros(data, cur.payload, sc);
        out.push(cur);
      }
      cur = { start: sc, payload: i + 1, end: n };
      i += 3;
    } else {
      i++;
    }
  }
  if (cur) {
    cur.end = trimZeros(data, cur.payload, n);
    out.push(cur);
  }
  return out.filter((r) => r.end > r.payload);
}

function trimZeros(data: Uint8Array, from: number, end: number): number {
  let e = end;
  while (e > from && data[e - 1] === 0) e--;
  return e;
}

/** NAL units (without start codes) as views of `data`. */
export function splitNalUnits(data: Uint8Array): Uint8Array[] {
  return nalRanges(data).map((r) => data.subarray(r.payload, r.end));
}

export function nalType(nal: Uint8Array): number {
  return (nal[0] ?? 0) & 0x1f;
}

/** Whether an H.264 access unit holds an IDR slice (decoding can start here). */
export function isIdrAccessUnit(au: Uint8Array): boolean {
  return nalRanges(au).some((r) => (au[r.payload]! & 0x1f) === NAL.IDR);
}

/** Whether an H.265 access unit holds an IRAP picture (BLA/IDR/CRA, types 16-23). */
export function isHevcKeyFrame(au: Uint8Array): boolean {
  return nalRanges(au).some((r) => {
    const t = (au[r.payload]! >> 1) & 0x3f;
    return t >= 16 && t <= 23;
  });
}

/** First NAL unit of a type in an Annex-B buffer (view), e.g. the SPS of a key frame. */
export function findNal(au: Uint8Array, type: number): Uint8Array | undefined {
  const r = nalRanges(au).find((x) => (au[x.payload]! & 0x1f) === type);
  return r ? au.subarray(r.payload, r.end) : undefined;
}

/**
 * Splits an H.264 Annex-B elementary stream into access units (views, start codes included), by
 * H.264 §7.4.1.2.3: an AUD, SEI, SPS or PPS after a slice, or a slice with first_mb_in_slice = 0
 * after a slice, starts a new unit. Works with and without AUDs.
 */
export function splitAccessUnits(stream: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let auStart = -1;
  let hasSlice = false;
  for (const r of nalRanges(stream)) {
    const t = stream[r.payload]! & 0x1f;
    const isSlice = t >= 1 && t <= 5;
    // first_mb_in_slice is ue(v) right after the 1-byte header: value 0 is the single bit '1'.
    const newPicture = isSlice && (stream[r.payload + 1]! & 0x80) !== 0;
    const startsUnit = hasSlice && (t === NAL.AUD || t === NAL.SEI || t === NAL.SPS || t === NAL.PPS || (t >= 14 && t <= 18) || newPicture);
    if (auStart < 0) auStart = r.start;
    else if (startsUnit) {
      out.push(stream.subarray(auStart, r.start));
      auStart = r.start;
      hasSlice = false;
    }
    if (isSlice) hasSlice = true;
  }
  if (auStart >= 0) out.push(stream.subarray(auStart));
  return out;
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00). */
export function toRbsp(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let n = 0;
  let zeros = 0;
  for (let i = 0; i < nal.length; i++) {
    const b = nal[i]!;
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

class BitReader {
  private pos = 0;
  overrun = false;
  constructor(private readonly b: Uint8Array) {}

  bit(): number {
    const byte = this.pos >> 3;
    if (byte >= this.b.length) {
      this.overrun = true;
      return 0;
    }
    const v = (this.b[byte]! >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return v;
  }

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  /** Exp-Golomb ue(v); more than 31 leading zeros is an error (marked as overrun). */
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) {
      if (this.overrun || ++zeros > 31) {
        this.overrun = true;
        return 0;
      }
    }
    return 2 ** zeros - 1 + this.bits(zeros);
  }

  se(): number {
    const k = this.ue();
    return k & 1 ? (k + 1) / 2 : -(k / 2);
  }
}

export interface SpsInfo {
  profileIdc: number;
  /** constraint_set0..5 flags and reserved bits: the byte after profile_idc. */
  constraintFlags: number;
  levelIdc: number;
  chromaFormatIdc: number;
  bitDepth: number;
  frameMbsOnly: boolean;
  /** Displayed size after cropping. */
  width: number;
  height: number;
  /** WebCodecs / RFC 6381 codec string, e.g. "avc1.42C01E". */
  codec: string;
}

export type SpsResult = { kind: 'sps'; sps: SpsInfo } | { kind: 'error'; error: string };

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function hex2(v: number): string {
  return v.toString(16).toUpperCase().padStart(2, '0');
}

/** "avc1.PPCCLL" from profile_idc, the constraint byte and level_idc. */
export function avcCodecString(profileIdc: number, constraintFlags: number, levelIdc: number): string {
  return `avc1.${hex2(profileIdc)}${hex2(constraintFlags)}${hex2(levelIdc)}`;
}

/** Parses an SPS NAL unit (with its 1-byte header, without start code). Never throws. */
export function parseSps(nal: Uint8Array): SpsResult {
  if (nal.length < 4 || (nal[0]! & 0x1f) !== NAL.SPS) return { kind: 'error', error: 'not an SPS NAL unit' };
  const rbsp = toRbsp(nal.subarray(1));
  const r = new BitReader(rbsp);
  const profileIdc = r.bits(8);
  const constraintFlags = r.bits(8);
  const levelIdc = r.bits(8);
  r.ue(); // seq_parameter_set_id
  let chromaFormatIdc = 1;
  let separateColourPlane = 0;
  let bitDepth = 8;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormatIdc = r.ue();
    if (chromaFormatIdc > 3) return { kind: 'error', error: `chroma_format_idc ${chromaFormatIdc} out of range` };
    if (chromaFormatIdc === 3) separateColourPlane = r.bit();
    bitDepth = r.ue() + 8;
    r.ue(); // bit_depth_chroma_minus8
    r.bit(); // qpprime_y_zero_transform_bypass_flag
    if (r.bit()) {
      const lists = chromaFormatIdc !== 3 ? 8 : 12;
      for (let i = 0; i < lists && !r.overrun; i++) {
        if (!r.bit()) continue;
        const size = i < 6 ? 16 : 64;
        let last = 8;
        let next = 8;
        for (let j = 0; j < size && !r.overrun; j++) {
          if (next !== 0) next = (last + r.se() + 256) % 256;
          last = next === 0 ? last : next;
        }
      }
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) {
    r.ue(); // log2_max_pic_order_cnt_lsb_minus4
  } else if (pocType === 1) {
    r.bit();
    r.se();
    r.se();
    const n = r.ue();
    if (n > 255) return { kind: 'error', error: 'num_ref_frames_in_pic_order_cnt_cycle out of range' };
    for (let i = 0; i < n; i++) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.bit(); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightMapUnits = r.ue() + 1;
  const frameMbsOnly = r.bit() === 1;
  if (!frameMbsOnly) r.bit(); // mb_adaptive_frame_field_flag
  r.bit(); // direct_8x8_inference_flag
  let cropLeft = 0;
  let cropRight = 0;
  let cropTop = 0;
  let cropBottom = 0;
  if (r.bit()) {
    cropLeft = r.ue();
    cropRight = r.ue();
    cropTop = r.ue();
    cropBottom = r.ue();
  }
  if (r.overrun) return { kind: 'error', error: 'SPS ends early or holds an invalid exp-Golomb code' };
  const chroma = separateColourPlane ? 0 : chromaFormatIdc;
  const subWidth = chroma === 1 || chroma === 2 ? 2 : 1;
  const subHeight = chroma === 1 ? 2 : 1;
  const cropUnitX = chroma === 0 ? 1 : subWidth;
  const cropUnitY = (chroma === 0 ? 1 : subHeight) * (frameMbsOnly ? 1 : 2);
  const width = widthMbs * 16 - cropUnitX * (cropLeft + cropRight);
  const height = (frameMbsOnly ? 1 : 2) * heightMapUnits * 16 - cropUnitY * (cropTop + cropBottom);
  if (width <= 0 || height <= 0 || widthMbs > 1024 || heightMapUnits > 1024) {
    return { kind: 'error', error: `impossible picture size ${width}x${height}` };
  }
  return {
    kind: 'sps',
    sps: { profileIdc, constraintFlags, levelIdc, chromaFormatIdc, bitDepth, frameMbsOnly, width, height, codec: avcCodecString(profileIdc, constraintFlags, levelIdc) },
  };
}

/** Codec string and size from a key frame's SPS, for a WebCodecs VideoDecoder config. */
export function describeAvc(au: Uint8Array): SpsInfo | undefined {
  const sps = findNal(au, NAL.SPS);
  if (!sps) return undefined;
  const r = parseSps(sps);
  return r.kind === 'sps' ? r.sps : undefined;
}

/** H.265 SPS summary: the parts a WebCodecs decoder config needs. */
export interface HevcSpsInfo {
  profileSpace: number;
  tier: number;
  profileIdc: number;
  levelIdc: number;
  chromaFormatIdc: number;
  width: number;
  height: number;
  /** ISO/IEC 14496-15 annex E codec string, e.g. "hvc1.1.6.L60.90". */
  codec: string;
}

export type HevcSpsResult = { kind: 'sps'; sps: HevcSpsInfo } | { kind: 'error'; error: string };

function reverseBits32(v: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r * 2) + ((v >>> i) & 1);
  return r;
}

/** Parses an H.265 SPS NAL unit (type 33, with its 2-byte header, without start code). Never throws. */
export function parseHevcSps(nal: Uint8Array): HevcSpsResult {
  if (nal.length < 16 || ((nal[0]! >> 1) & 0x3f) !== 33) return { kind: 'error', error: 'not an H.265 SPS NAL unit' };
  const r = new BitReader(toRbsp(nal.subarray(2)));
  r.bits(4); // sps_video_parameter_set_id
  const maxSubLayersMinus1 = r.bits(3);
  r.bit(); // sps_temporal_id_nesting_flag
  // profile_tier_level(1, maxSubLayersMinus1)
  const profileSpace = r.bits(2);
  const tier = r.bit();
  const profileIdc = r.bits(5);
  const compat = r.bits(32);
  const constraint: number[] = [];
  for (let i = 0; i < 6; i++) constraint.push(r.bits(8));
  const levelIdc = r.bits(8);
  const subProfile: boolean[] = [];
  const subLevel: boolean[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    subProfile.push(r.bit() === 1);
    subLevel.push(r.bit() === 1);
  }
  if (maxSubLayersMinus1 > 0) for (let i = maxSubLayersMinus1; i < 8; i++) r.bits(2);
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (subProfile[i]) r.bits(88);
    if (subLevel[i]) r.bits(8);
  }
  r.ue(); // sps_seq_parameter_set_id
  const chromaFormatIdc = r.ue();
  if (chromaFormatIdc > 3) return { kind: 'error', error: `chroma_format_idc ${chromaFormatIdc} out of range` };
  const separate = chromaFormatIdc === 3 ? r.bit() : 0;
  let width = r.ue();
  let height = r.ue();
  if (r.bit()) {
    const chroma = separate ? 0 : chromaFormatIdc;
    const subWidth = chroma === 1 || chroma === 2 ? 2 : 1;
    const subHeight = chroma === 1 ? 2 : 1;
    const left = r.ue();
    const right = r.ue();
    const top = r.ue();
    const bottom = r.ue();
    width -= subWidth * (left + right);
    height -= subHeight * (top + bottom);
  }
  if (r.overrun) return { kind: 'error', error: 'SPS ends early or holds an invalid exp-Golomb code' };
  if (width <= 0 || height <= 0 || width > 16_888 || height > 16_888) return { kind: 'error', error: `impossible picture size ${width}x${height}` };
  while (constraint.length > 0 && constraint[constraint.length - 1] === 0) constraint.pop();
  const codec = [
    'hvc1',
    `${profileSpace ? 'ABC'[profileSpace - 1] : ''}${profileIdc}`,
    reverseBits32(compat).toString(16).toUpperCase(),
    `${tier ? 'H' : 'L'}${levelIdc}`,
    ...constraint.map((b) => b.toString(16).toUpperCase()),
  ].join('.');
  return { kind: 'sps', sps: { profileSpace, tier, profileIdc, levelIdc, chromaFormatIdc, width, height, codec } };
}

/** Codec string and size from an H.265 key frame's SPS. */
export function describeHevc(au: Uint8Array): HevcSpsInfo | undefined {
  const range = nalRanges(au).find((x) => ((au[x.payload]! >> 1) & 0x3f) === 33);
  if (!range) return undefined;
  const r = parseHevcSps(au.subarray(range.payload, range.end));
  return r.kind === 'sps' ? r.sps : undefined;
}
