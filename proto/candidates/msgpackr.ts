/**
 * msgpackr records (decode benchmark candidate): the JSON-mode vehicle records packed with msgpackr's
 * record extension (keys written once per structure), then copied into typed-array columns.
 */
import { Packr } from 'msgpackr';
import type { PositionColumns } from '../codec.ts';
import { columnsFromJson, type JsonPositions } from '../json.ts';

const packr = new Packr({ useRecords: true });

/** Packs the body of a JSON-mode positions message (so both carry the same content). */
export function encodeMsgpackFrame(json: string): Uint8Array {
  const data = (JSON.parse(json) as { commandBody: { data: JsonPositions } }).commandBody.data;
  return packr.pack(data);
}

export function decodeMsgpackFrame(bytes: Uint8Array, out?: PositionColumns): PositionColumns {
  return columnsFromJson(packr.unpack(bytes) as JsonPositions, out);
}
