/**
 * The gateway's terminal directory: device number → device (its vehicle, if installed) and current
 * auth code (cached, backed by the `device` and `terminal` tables, migration 22), and the registration
 * rules of JT/T 808 (0x0100 / 0x0102 / 0x0003):
 * - An unknown number is refused with result 4 ("no such terminal" in the standard's table) and the
 *   refusal is recorded (`terminal_refusal`, shown on the device page), unless autoRegister is on: then
 *   it becomes a DEVICE (source 'auto', no vehicle: "unassigned") and is accepted. Nothing else is created.
 * - autoRegister off: a device entered but installed on no vehicle is refused with result 2 ("no such
 *   vehicle") and recorded the same way.
 * - A terminal that holds an auth code is refused with result 3 ("terminal already registered"):
 *   anyone who knows a SIM number could otherwise take over its identity with a fresh code. The
 *   refusal is logged and counted on the terminal row. It registers again only after its own 0x0003
 *   (terminal unregistration) or an operator's reset.
 * - 0x0102 succeeds only with the current code (compared in constant time).
 * An entry's vehicle follows the installation records (`reload`, called through FleetSync after a
 * commit): the entry object is shared with the sessions that authenticated it, so a connection's next
 * report goes to the new vehicle without reconnecting. Sessions (session.ts) ask; nothing here knows
 * about sockets.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TerminalRepository } from '../db/repositories.ts';
import type { LiveStore } from '../live/store.ts';
import { REGISTER_RESULT, type Register } from './jt808/index.ts';
import type { GatewayLog, GatewayStats } from './types.ts';

export interface TerminalEntry {
  /** The vehicle the device is installed on; null: none (reports are acknowledged, never stored). Changes in place on (un)binding. */
  vehicleId: number | null;
  readonly deviceNo: string;
  /** The valid auth code; null before registration and after unregistration or a reset. */
  authCode: string | null;
}

/** Counters of the device side of registration (issue 15), beside GatewayStats in `snapshotStats`. */
export interface DeviceGatewayStats {
  /** 0x0100 with a number no device has (result 4), recorded in terminal_refusal. */
  refusedUnknown: number;
  /** 0x0100 of a device installed on no vehicle while autoRegister is off (result 2), recorded. */
  refusedNoVehicle: number;
  /** Reports and other messages of an authenticated device installed on no vehicle: acknowledged, stored nowhere. */
  unassignedMessages: number;
}

export function emptyDeviceGatewayStats(): DeviceGatewayStats {
  return { refusedUnknown: 0, refusedNoVehicle: 0, unassignedMessages: 0 };
}

export interface DirectoryOptions {
  readonly autoRegister: boolean;
  readonly autoRegisterCompanyId?: number;
}

/** What `reload` did to one cached entry (the gateway moves its sessions accordingly). */
export interface EntryChange {
  readonly phone: string;
  readonly entry: TerminalEntry;
  /** The device is gone (deleted, or renumbered away from this number). */
  readonly removed: boolean;
  /**
   * The code this node's cached entry held is no longer the database's (an operator's reset, or a new
   * registration, made on another node): a connection authenticated with it loses the terminal.
   */
  readonly voided?: boolean;
  readonly previousVehicleId: number | null;
}

/** The codec's phone key (leading zeros dropped) of a 12-digit device number. */
export function phoneKey(deviceNo: string): string {
  return deviceNo.replace(/^0+/, '') || '0';
}

/** The 12-digit device number of a phone key; undefined when it cannot be one. */
export function deviceNoOf(key: string): string | undefined {
  return key.length <= 12 ? key.padStart(12, '0') : undefined;
}

function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class TerminalDirectory {
  private readonly byPhone = new Map<string, TerminalEntry>();
  /** Devices being provisioned (autoRegister), so two connections registering one number create one device. */
  private readonly provisioning = new Map<string, Promise<TerminalEntry | undefined>>();
  /**
   * Issue 20: other gateway nodes share the database (set when the bus is attached). A terminal may have
   * registered on another node since this one cached its entry: a refused code is checked against the
   * database once before the refusal (`refreshCode`).
   */
  shared = false;

  constructor(
    private readonly terminals: TerminalRepository,
    private readonly store: LiveStore,
    private readonly stats: GatewayStats,
    private readonly options: DirectoryOptions,
    private readonly log: GatewayLog | undefined,
    readonly deviceStats: DeviceGatewayStats = emptyDeviceGatewayStats(),
  ) {}

  async init(): Promise<void> {
    for (const d of await this.terminals.allDevices()) {
      this.byPhone.set(phoneKey(d.deviceNo), { vehicleId: d.vehicleId, deviceNo: d.deviceNo, authCode: d.authCode });
    }
    if (this.options.autoRegister) {
      this.log?.warn({ companyId: this.options.autoRegisterCompanyId ?? 'first root company' },
        'gateway: autoRegister is on: any TCP client that sends 0x0100 with an unknown number creates an unassigned device (GATEWAY_AUTO_REGISTER=0 turns it off)');
    }
  }

  /** The cached entry of a phone key (the hot path: no database). */
  cached(phone: string): TerminalEntry | undefined {
    return this.byPhone.get(phone);
  }

  /** The entry of a phone key; a device entered after start (management calls) is found in the database. */
  async lookup(phone: string): Promise<TerminalEntry | undefined> {
    const cached = this.byPhone.get(phone);
    if (cached) return cached;
    const deviceNo = deviceNoOf(phone);
    if (!deviceNo) return undefined;
    const row = await this.terminals.deviceByNo(deviceNo);
    if (!row) return undefined;
    const entry: TerminalEntry = this.byPhone.get(phone) ?? { vehicleId: row.vehicleId, deviceNo: row.deviceNo, authCode: row.authCode };
    this.byPhone.set(phone, entry);
    if (row.vehicleId !== null && row.companyId !== null && row.companyPath !== null) {
      this.store.upsertVehicle({ vehicleId: row.vehicleId, companyId: row.companyId, companyPath: row.companyPath });
    }
    return entry;
  }

  /**
   * Re-reads the entry's auth code from the database (issue 20: a registration on another gateway node
   * set it, or an unregistration there voided it, after this node cached it). Changes the entry in place.
   */
  async refreshCode(entry: TerminalEntry): Promise<TerminalEntry> {
    const row = await this.terminals.deviceByNo(entry.deviceNo);
    entry.authCode = row ? row.authCode : null;
    return entry;
  }

  /**
   * Re-reads these devices after a management change was committed: an installed or removed vehicle
   * changes the cached entry in place, a device gone (deleted or renumbered) leaves the cache. Entries
   * not cached are left to `lookup`. Answers what changed.
   */
  async reload(deviceNos: readonly string[]): Promise<EntryChange[]> {
    const changes: EntryChange[] = [];
    for (const deviceNo of new Set(deviceNos)) {
      const phone = phoneKey(deviceNo);
      const entry = this.byPhone.get(phone);
      // Not cached: nothing holds it; `lookup` reads it when its terminal first speaks (an import of
      // 10,000 devices costs no reads here).
      if (!entry) continue;
      const row = await this.terminals.deviceByNo(deviceNo);
      const previousVehicleId = entry.vehicleId;
      if (!row) {
        this.byPhone.delete(phone);
        entry.authCode = null;
        entry.vehicleId = null;
        changes.push({ phone, entry, removed: true, previousVehicleId });
        continue;
      }
      if (row.vehicleId !== null && row.companyId !== null && row.companyPath !== null) {
        this.store.upsertVehicle({ vehicleId: row.vehicleId, companyId: row.companyId, companyPath: row.companyPath });
      }
      // Scale-out (issue 20): the reset was made on another node, whose FleetSync told this one the device changed.
      const voided = entry.authCode !== null && (row.authCode === null || !sameCode(row.authCode, entry.authCode));
      if (voided) entry.authCode = row.authCode;
      if (row.vehicleId !== previousVehicleId || voided) {
        entry.vehicleId = row.vehicleId;
        changes.push({ phone, entry, removed: false, voided, previousVehicleId: row.vehicleId !== previousVehicleId ? previousVehicleId : null });
      }
    }
    return changes;
  }

  /** Cached entries installed on these vehicles (a vehicle deleted or moved: its device must be re-read). */
  devicesOfVehicles(vehicleIds: ReadonlySet<number>): string[] {
    const out: string[] = [];
    for (const e of this.byPhone.values()) if (e.vehicleId !== null && vehicleIds.has(e.vehicleId)) out.push(e.deviceNo);
    return out;
  }

  /** True when `authCode` is the terminal's current code. */
  accepts(entry: TerminalEntry, authCode: string): boolean {
    return entry.authCode !== null && sameCode(entry.authCode, authCode);
  }

  /**
   * Decides a 0x0100: the 0x8100 result and, with result 0, the new auth code. Nothing about the
   * terminal changes unless it gets result 0 (a refusal only adds to the refusal count).
   */
  async register(phone: string, msg: Register, remoteAddress: string | undefined): Promise<{ result: number; authCode: string }> {
    const refused = (result: number) => {
      this.stats.registerRefused++;
      return { result, authCode: '' };
    };
    const at = this.store.clock();
    const refusal = async (result: number, deviceNo: string) => {
      // Recorded for operators (device page, device/error): who knocked, from where, with what.
      await this.terminals.recordRegisterRefusal({
        deviceNo, result, at, remoteAddress: remoteAddress ?? '', makerId: msg.makerId, model: msg.model, terminalId: msg.terminalId,
        plateColor: msg.plateColor, plate: msg.plate,
      });
      return refused(result);
    };
    const entry = (await this.lookup(phone)) ?? (await this.provision(phone, msg, remoteAddress));
    if (!entry) {
      const deviceNo = deviceNoOf(phone);
      if (!deviceNo) return refused(REGISTER_RESULT.NO_TERMINAL);
      this.deviceStats.refusedUnknown++;
      return refusal(REGISTER_RESULT.NO_TERMINAL, deviceNo);
    }
    if (entry.authCode !== null) {
      this.stats.reregisterRefused++;
      this.log?.warn({ deviceNo: entry.deviceNo, vehicleId: entry.vehicleId, remoteAddress },
        'gateway: 0x0100 for a terminal that is already registered refused with result 3 (it must unregister with 0x0003, or an operator resets it)');
      await this.terminals.recordRefusedRegistration(entry.deviceNo, at, remoteAddress ?? null);
      return refused(REGISTER_RESULT.TERMINAL_TAKEN);
    }
    if (entry.vehicleId === null && !this.options.autoRegister) {
      this.deviceStats.refusedNoVehicle++;
      return refusal(REGISTER_RESULT.NO_VEHICLE, entry.deviceNo);
    }
    const authCode = randomBytes(8).toString('hex');
    // Taken before the write, so a second 0x0100 racing this one on another connection is refused.
    entry.authCode = authCode;
    try {
      await this.terminals.register({
        deviceNo: entry.deviceNo, authCode, makerId: msg.makerId, model: msg.model,
        terminalId: msg.terminalId, plateColor: msg.plateColor, plate: msg.plate,
      });
    } catch (err) {
      entry.authCode = null;
      throw err;
    }
    this.stats.registered++;
    return { result: REGISTER_RESULT.OK, authCode };
  }

  /** 0x0003 from the authenticated terminal, or an operator's reset: its auth code is void. */
  async unregister(entry: TerminalEntry, by: 'terminal' | 'operator', userId?: number): Promise<boolean> {
    const had = entry.authCode !== null;
    entry.authCode = null;
    const changed = await this.terminals.unregister(entry.deviceNo, this.store.clock(), by, userId);
    if (had || changed) {
      if (by === 'terminal') this.stats.unregistered++;
      else this.stats.registrationResets++;
    }
    return had || changed;
  }

  markAuthenticated(entry: TerminalEntry): void {
    void this.terminals.markAuthenticated(entry.deviceNo, this.store.clock()).catch((err: unknown) => this.log?.warn({ err }, 'gateway: auth time not stored'));
  }

  /** autoRegister: an unassigned device for an unknown number (one per number even when registrations race). */
  private provision(phone: string, msg: Register, remoteAddress: string | undefined): Promise<TerminalEntry | undefined> {
    if (!this.options.autoRegister) return Promise.resolve(undefined);
    const deviceNo = deviceNoOf(phone);
    if (!deviceNo) return Promise.resolve(undefined);
    let pending = this.provisioning.get(phone);
    if (!pending) {
      pending = (async () => {
        const { terminals } = this;
        const companyId = this.options.autoRegisterCompanyId ?? (await terminals.defaultCompanyId());
        if (companyId === undefined) return undefined;
        const row = await terminals.provisionDevice({
          deviceNo, companyId, terminalId: msg.terminalId.slice(0, 30), model: msg.model.slice(0, 30), at: this.store.clock(), remoteAddress: remoteAddress ?? '',
        });
        const entry: TerminalEntry = { vehicleId: row.vehicleId, deviceNo: row.deviceNo, authCode: null };
        this.byPhone.set(phone, entry);
        this.stats.provisioned++;
        return entry;
      })().finally(() => this.provisioning.delete(phone));
      this.provisioning.set(phone, pending);
    }
    return pending;
  }
}
