/**
 * A simulated terminal's parameter store and its answers to the terminal-parameter / terminal-control
 * family (issue 17), as a real terminal does: 0x8103 writes the store (kept like flash while the
 * simulator runs), 0x8104 answers every stored parameter in 0x0104, 0x8106 the chosen ids (unknown
 * ids are left out, as real terminals do), 0x8107 answers 0x0107 with its attributes, 0x8201 answers
 * 0x0201 with its latest position, 0x8202 starts (or, with interval 0, stops) temporary tracking and
 * 0x8105 is acknowledged. The heartbeat interval (0x0001) is read by terminal.ts at every wake, so a
 * changed interval changes the cadence at once. The active-safety blocks (0xF364 ADAS, 0xF365 DSM,
 * T/JSATL12-2017) ship with the standard's defaults, and the ADAS/DMS alarms the vehicle raises follow
 * the block the terminal holds (`applyActiveSafety`): below the alarm speed threshold no alarm, a
 * disabled level no alarm, above the level speed threshold level two.
 */
import { ADAS_PARAMS, blockDefaults, DSM_PARAMS, type ActiveSafetyBlock, type BlockLayout } from '../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAMS } from '../../domain/terminal-params/hjws.ts';
import { PARAM, PARAM_MSG, RESULT, type Jt808Header, type Jt808MessageInput, type LocationInput, type ParameterMessage, type TerminalAttributes, type TerminalParameter } from '../gateway/jt808/index.ts';

export type ParameterStore = Map<number, TerminalParameter['value']>;

/**
 * What a terminal holds before the platform sets anything: the factory values a real unit ships with.
 * Kept apart from the store (which holds only what the platform set, as tests of 0x8103 read it).
 */
export function simDefaultParameters(opts: { plate: string; heartbeatMs: number }): ParameterStore {
  const defaults: [number, TerminalParameter['value']][] = [
    [PARAM.heartbeatInterval.id, Math.max(1, Math.round(opts.heartbeatMs / 1000))],
    [PARAM.tcpReplyTimeout.id, 10],
    [PARAM.tcpRetransmissions.id, 3],
    [PARAM.mainServerApn.id, 'CMNET'],
    [PARAM.mainServerAddress.id, '127.0.0.1'],
    [PARAM.reportStrategy.id, 0],
    [PARAM.reportScheme.id, 0],
    [PARAM.sleepReportInterval.id, 300],
    [PARAM.emergencyReportInterval.id, 5],
    [PARAM.defaultReportInterval.id, 10],
    [PARAM.defaultReportDistance.id, 500],
    [PARAM.turnAngle.id, 30],
    [PARAM.maxSpeed.id, 100],
    [PARAM.overspeedDuration.id, 10],
    [PARAM.continuousDrivingLimit.id, 14_400],
    [PARAM.dailyDrivingLimit.id, 28_800],
    [PARAM.minRest.id, 1200],
    [PARAM.maxParking.id, 3600],
    [PARAM.plate.id, opts.plate],
    [PARAM.plateColor.id, 2],
    [ADAS_PARAMS.id, blockDefaults(ADAS_PARAMS)],
    [DSM_PARAMS.id, blockDefaults(DSM_PARAMS)],
    // The slag-truck controller block (0xF3A0): every simulated unit carries the controller firmware;
    // only slag trucks have a box that follows it (sim/box.ts).
    [HJWS_PARAMS.id, blockDefaults(HJWS_PARAMS)],
  ];
  return new Map(defaults);
}

/** The heartbeat interval the terminal follows now (ms): its stored 0x0001, else `fallbackMs`. */
export function heartbeatMsOf(store: ParameterStore, fallbackMs: number): number {
  const v = store.get(PARAM.heartbeatInterval.id);
  return typeof v === 'number' && v > 0 ? v * 1000 : fallbackMs;
}

/** The block the terminal follows now: what the platform set, else the standard's defaults. */
export function activeSafetyOf(store: ParameterStore, layout: BlockLayout): ActiveSafetyBlock {
  const v = store.get(layout.id);
  return typeof v === 'object' && !(v instanceof Uint8Array) ? v : blockDefaults(layout);
}

/**
 * ADAS alarm type (location.ts AdasAlarm.type) → its field group in the block and the bit of its
 * level-one enable (level two is the next bit), table 4-10. The alarm speed threshold applies to
 * forward collision, lane departure, headway and frequent lane change only (the standard's note).
 */
const ADAS_TYPES: Record<number, { group: string; bit: number; gated: boolean }> = {
  1: { group: 'forwardCollision', bit: 6, gated: true },
  2: { group: 'laneDeparture', bit: 4, gated: true },
  3: { group: 'headway', bit: 10, gated: true },
  4: { group: 'pedestrian', bit: 8, gated: false },
  5: { group: 'laneChange', bit: 2, gated: true },
  7: { group: 'obstacle', bit: 0, gated: false },
};
/** DMS alarm type → group and level-one enable bit (table 4-11); the speed threshold applies to all. */
const DSM_TYPES: Record<number, { group: string; bit: number }> = {
  1: { group: 'fatigue', bit: 0 },
  2: { group: 'phone', bit: 2 },
  3: { group: 'smoking', bit: 4 },
  4: { group: 'distraction', bit: 6 },
  5: { group: 'abnormal', bit: 8 },
};

/** Level by the group's level speed threshold; null when that level is disabled in the enable mask. */
function levelFor(block: ActiveSafetyBlock, group: string, bit: number, speed: number): number | null {
  const level = speed > (block[`${group}LevelSpeed`] ?? 50) ? 2 : 1;
  const enable = block.alarmEnable ?? 0xffffffff;
  return ((enable >>> (bit + level - 1)) & 1) === 1 ? level : null;
}

/** The location report as the terminal's active-safety settings let it through (see the file comment). */
export function applyActiveSafety(store: ParameterStore, loc: LocationInput): LocationInput {
  if (!loc.adas && !loc.dms) return loc;
  let { adas, dms } = loc;
  if (adas) {
    const block = activeSafetyOf(store, ADAS_PARAMS);
    const rule = ADAS_TYPES[adas.type];
    if (rule) {
      const level = rule.gated && adas.speed < (block.alarmSpeedThreshold ?? 0) ? null : levelFor(block, rule.group, rule.bit, adas.speed);
      adas = level === null ? undefined : { ...adas, level };
    }
  }
  if (dms) {
    const block = activeSafetyOf(store, DSM_PARAMS);
    const rule = DSM_TYPES[dms.type];
    if (rule) {
      const level = dms.speed < (block.alarmSpeedThreshold ?? 0) ? null : levelFor(block, rule.group, rule.bit, dms.speed);
      dms = level === null ? undefined : { ...dms, level };
    }
  }
  const { adas: _a, dms: _d, ...rest } = loc;
  return { ...rest, ...(adas ? { adas } : {}), ...(dms ? { dms } : {}) };
}

/** 0x0107 of a simulated terminal (deterministic from its device number). */
export function simAttributes(deviceNo: string, registration: { makerId?: string; model?: string; terminalId?: string }, firmwareVersion = 'SIM-808-1.0'): TerminalAttributes {
  const digits = deviceNo.replace(/\D/g, '').padStart(11, '0').slice(-11);
  return {
    msgId: 0x0107, terminalType: 0b0000_0100, makerId: (registration.makerId ?? 'SIM01').slice(0, 5), model: registration.model ?? 'FLEET-SIM',
    terminalId: registration.terminalId ?? deviceNo.slice(-7), iccid: `898600${digits}000`.slice(0, 20),
    hardwareVersion: 'HW1.0', firmwareVersion, gnss: 0b0011, comm: 0b0010_0001,
  };
}

export interface ParameterLink {
  readonly deviceNo: string;
  /** What the platform set (0x8103). */
  readonly parameters: ParameterStore;
  /** The factory values under it. */
  factory(): ParameterStore;
  readonly registration: { makerId?: string; model?: string; terminalId?: string };
  /** The firmware installed by the last 0x8108 (sim/upgrade.ts), else the factory one. */
  firmwareVersion?(): string;
  /** The latest position the terminal took (null before the first). */
  lastLocation(): LocationInput | null;
  send(msg: Jt808MessageInput): void;
  reply(result: number): void;
  /** 0x8202: report every `intervalS` seconds for `validityS` seconds (0 stops). */
  track(intervalS: number, validityS: number): void;
}

/** Answers one message of the family the platform sent. */
export function simParameterCommand(link: ParameterLink, header: Jt808Header, m: ParameterMessage): void {
  switch (m.msgId) {
    case PARAM_MSG.SET:
      for (const { id, value } of m.params) link.parameters.set(id, value);
      link.reply(RESULT.OK);
      return;
    case PARAM_MSG.QUERY_ALL:
    case PARAM_MSG.QUERY_CHOSEN: {
      const all = link.factory();
      for (const [id, value] of link.parameters) all.set(id, value);
      const ids = m.msgId === PARAM_MSG.QUERY_ALL ? [...all.keys()].sort((a, b) => a - b) : m.ids.filter((id) => all.has(id));
      const params = ids.slice(0, 255).map((id) => ({ id, value: all.get(id)! }));
      link.send({ msgId: PARAM_MSG.ANSWER, replySerial: header.serial, params });
      return;
    }
    case PARAM_MSG.QUERY_ATTRIBUTES:
      link.send(simAttributes(link.deviceNo, link.registration, link.firmwareVersion?.()));
      return;
    case PARAM_MSG.POSITION_QUERY: {
      const at = link.lastLocation();
      if (!at) {
        link.reply(RESULT.FAIL);
        return;
      }
      link.send({ msgId: PARAM_MSG.POSITION_ANSWER, replySerial: header.serial, location: at });
      return;
    }
    case PARAM_MSG.TEMPORARY_TRACKING:
      link.track(m.interval, m.validity);
      link.reply(RESULT.OK);
      return;
    case PARAM_MSG.CONTROL:
      // Commands are acknowledged; a simulated unit neither shuts down nor dials another server.
      link.reply(m.command >= 1 && m.command <= 7 ? RESULT.OK : RESULT.UNSUPPORTED);
      return;
    default:
      // Answers (0x0104 / 0x0107 / 0x0201) travel terminal → platform only.
      link.reply(RESULT.UNSUPPORTED);
  }
}
