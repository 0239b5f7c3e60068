/** Public surface of the JT/T 1078 media codec (pure: Uint8Array in, plain objects out). */
export { isJt1078Error, Jt1078Error, type Jt1078ErrorCode } from './errors.ts';
export {
  DATA_TYPE,
  decodePacket,
  decodeSim,
  encodedLength,
  encodePacket,
  headerLength,
  MAGIC,
  MAX_BODY_LENGTH,
  PAYLOAD_TYPE,
  payloadTypeName,
  streamKind,
  SUBPACKAGE,
  writePacket,
  type DataType,
  type Jt1078Packet,
  type PacketInit,
  type PacketOptions,
  type PacketResult,
  type PayloadTypeName,
  type SimLength,
  type StreamKind,
  type Subpackage,
} from './packet.ts';
export { PacketSplitter, type PacketErrorSink, type PacketSink, type SplitterOptions, type SplitterStats } from './splitter.ts';
export { FrameAssembler, isKeyFrame, type AssemblerOptions, type AssemblerStats, type MediaFrame } from './reassembly.ts';
export { encodeFrame, Packetizer, packetizeFrame, type FrameInit, type PacketizerOptions } from './packetizer.ts';
export {
  avcCodecString,
  describeAvc,
  describeHevc,
  findNal,
  isHevcKeyFrame,
  isIdrAccessUnit,
  NAL,
  nalRanges,
  nalType,
  parseHevcSps,
  parseSps,
  splitAccessUnits,
  splitNalUnits,
  toRbsp,
  type HevcSpsInfo,
  type HevcSpsResult,
  type NalRange,
  type SpsInfo,
  type SpsResult,
} from '../../../proto/h264.ts';
export { measurePacketRate, mediaStream, type PacketRate, type PacketRateOptions } from './throughput.ts';
