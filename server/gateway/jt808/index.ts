/** Public surface of the JT/T 808 codec (pure: Uint8Array in, plain objects out). */
export { Jt808Error, isJt808Error, type Jt808ErrorCode } from './errors.ts';
export { decodeGbk, encodeGbk, fromHex, toHex } from './bytes.ts';
export {
  DEFAULT_MAX_FRAME_BODY,
  ESCAPE,
  escapeFrame,
  FLAG,
  FrameSplitter,
  MIN_FRAME_BODY,
  unescapeFrame,
  type FrameErrorSink,
  type FrameSink,
  type SplitterOptions,
  type SplitterStats,
} from './framing.ts';
export { bcc, headerLength, MAX_BODY_LENGTH, readHeader, type HeaderInit, type HeaderRead, type Jt808Header, type ProtocolEdition } from './header.ts';
export {
  decodeLocation,
  ITEM,
  STATUS_SOUTH,
  STATUS_WEST,
  type AdasAlarm,
  type AdditionalItem,
  type AlarmIdentification,
  type BatchLocation,
  type BatchLocationInput,
  type DmsAlarm,
  type LocationInput,
  type LocationReport,
} from './location.ts';
export {
  decodeMessage,
  encodeBody,
  isSupported,
  MSG,
  REGISTER_RESULT,
  RESULT,
  type AlarmConfirm,
  type Authenticate,
  type Heartbeat,
  type Jt808Message,
  type Jt808MessageInput,
  type Logout,
  type PlatformResponse,
  type Register,
  type RegisterResponse,
  type ResendRequest,
  type TerminalResponse,
  type TextMessage,
} from './messages.ts';
export {
  isMediaSignalling,
  LIVE_COMMAND,
  LIVE_DATA,
  MEDIA_MSG,
  PLAYBACK_COMMAND,
  PLAYBACK_SPEEDS,
  type AvAttributes,
  type AvQuery,
  type LiveControl,
  type LiveRequest,
  type MediaSignalling,
  type PlaybackControl,
  type PlaybackRequest,
  type ResourceItem,
  type ResourceList,
  type ResourceQuery,
} from './media-signalling.ts';
export {
  firstSerialOf,
  Reassembler,
  ReassemblyBudget,
  type PushResult,
  type Reassembled,
  type ReassemblerOptions,
  type ReassemblerStats,
  type ResendAsk,
} from './reassembly.ts';
export {
  PARAM, parameter, parameterSpec, SET_PARAMETERS, type ParameterSpec, type ParameterType, type SetTerminalParameters, type TerminalParameter,
  CONTROL_COMMAND, PARAM_MSG, type ParameterAnswer, type ParameterMessage, type PositionAnswer, type TerminalAttributes, type TerminalControl, type TemporaryTracking,
} from './parameters.ts';
export { decodeBody, decodeFrame, encodeFrame, encodeFrameBody, encodeFrames, encodePacket, encodeReply, type FrameResult } from './codec.ts';
export { locationStream, measureDecodeRate, type DecodeRate, type DecodeRateOptions } from './throughput.ts';
