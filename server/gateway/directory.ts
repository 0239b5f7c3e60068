/**
 * The gateway's terminal directory: device number → vehicle and current auth code (cached, backed by
 * the `terminal` table), and the registration rules of JT/T 808 (0x0100 / 0x0102 / 0x0003):
 * - An unknown terminal is refused with result 4 unless autoRegister provisions a vehicle for it.
 * - A terminal that holds an auth code is refused with result 3 ("terminal already registered"):
 *   anyone who knows a SIM number could otherwise take over its identity with a fresh code. The
 *   refusal is logged and counted on the terminal row. It registers again only after its own 0x0003
 *   (terminal unregistration) or an operator's reset.
 * - 0x0102 succeeds only with the current code (compared in constant time).
 * Sessions (session.ts) ask; nothing here knows about sockets.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TerminalRepository } from '../db/repositories.ts';
import type { LiveStore } from '../live/store.ts';
import { REGISTER_RESULT, type Register } from './jt808/index.ts';
import type { GatewayLog, GatewayStats } from './types.ts';

export interface TerminalEntry {
  readonly vehicleId: number;
  readonly deviceNo: string;
  /** The valid auth code; null before registration and after unregistration or a reset. */
  authCode: string | null;
}

export interface DirectoryOptions {
  readonly autoRegister: boolean;
  readonly autoRegisterCompanyId?: number;
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
  /** Vehicles being provisioned (autoRegister), so two connections registering one number create one vehicle. */
  private readonly provisioning = new Map<string, Promise<TerminalEntry | undefined>>();

  constructor(
    private readonly terminals: TerminalRepository,
    private readonly store: LiveStore,
    private readonly stats: GatewayStats,
    private readonly options: DirectoryOptions,
    private readonly log: GatewayLog | undefined,
  ) {}

  async init(): Promise<void> {
    for (const v of await this.terminals.allVehicles()) {
      this.byPhone.set(phoneKey(v.deviceNo), { vehicleId: v.vehicleId, deviceNo: v.deviceNo, authCode: v.authCode });
    }
    if (this.options.autoRegister) {
      this.log?.warn({ companyId: this.options.autoRegisterCompanyId ?? 'first root company' },
        'gateway: autoRegister is on: any TCP client that sends 0x0100 with an unknown number creates a vehicle (GATEWAY_AUTO_REGISTER=0 turns it off)');
    }
  }

  /** The cached entry of a phone key (the hot path: no database). */
  cached(phone: string): TerminalEntry | undefined {
    return this.byPhone.get(phone);
  }

  /** The entry of a phone key; a vehicle created after start (management calls) is found in the database. */
  async lookup(phone: string): Promise<TerminalEntry | undefined> {
    const cached = this.byPhone.get(phone);
    if (cached) return cached;
    const deviceNo = deviceNoOf(phone);
    if (!deviceNo) return undefined;
    const row = await this.terminals.byDeviceNo(deviceNo);
    if (!row) return undefined;
    const entry: TerminalEntry = this.byPhone.get(phone) ?? { vehicleId: row.vehicleId, deviceNo: row.deviceNo, authCode: row.authCode };
    this.byPhone.set(phone, entry);
    this.store.upsertVehicle({ vehicleId: row.vehicleId, companyId: row.companyId, companyPath: row.companyPath });
    return entry;
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
    const entry = (await this.lookup(phone)) ?? (await this.provision(phone, msg));
    if (!entry) return refused(REGISTER_RESULT.NO_TERMINAL);
    if (entry.authCode !== null) {
      this.stats.reregisterRefused++;
      const at = this.store.clock();
      this.log?.warn({ deviceNo: entry.deviceNo, vehicleId: entry.vehicleId, remoteAddress },
        'gateway: 0x0100 for a terminal that is already registered refused with result 3 (it must unregister with 0x0003, or an operator resets it)');
      await this.terminals.recordRefusedRegistration(entry.deviceNo, at, remoteAddress ?? null);
      return refused(REGISTER_RESULT.TERMINAL_TAKEN);
    }
    const authCode = randomBytes(8).toString('hex');
    // Taken before the write, so a second 0x0100 racing this one on another connection is refused.
    entry.authCode = authCode;
    try {
      await this.terminals.register({
        deviceNo: entry.deviceNo, vehicleId: entry.vehicleId, authCode, makerId: msg.makerId, model: msg.model,
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

  /** autoRegister: a vehicle for an unknown number (one per number even when registrations race). */
  private provision(phone: string, msg: Register): Promise<TerminalEntry | undefined> {
    if (!this.options.autoRegister) return Promise.resolve(undefined);
    const deviceNo = deviceNoOf(phone);
    if (!deviceNo) return Promise.resolve(undefined);
    let pending = this.provisioning.get(phone);
    if (!pending) {
      pending = (async () => {
        const { terminals } = this;
        const companyId = this.options.autoRegisterCompanyId ?? (await terminals.defaultCompanyId());
        if (companyId === undefined) return undefined;
        const plate = msg.plateColor !== 0 ? msg.plate.trim() : '';
        const vehiidno = plate && !(await terminals.vehiidnoTaken(plate)) ? plate : `T${deviceNo}`;
        const row = await terminals.provisionVehicle({ vehiidno, companyId, deviceNo });
        this.store.upsertVehicle({ vehicleId: row.vehicleId, companyId: row.companyId, companyPath: row.companyPath });
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
