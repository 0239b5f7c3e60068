/**
 * Seeded vehicles handed out one per test, inside or outside the demo seed's east branch, and scripted
 * JT/T 808 terminals for them (closed together at the end). Safety, board and multimedia tests share it.
 */
import { ALL_COMPANIES } from '../db/scope.ts';
import { TestTerminal } from '../gateway/terminal-client.ts';
import type { LiveTestServer } from '../live/test-harness.ts';

export interface SeededVehicle {
  readonly vehicleId: number;
  readonly deviceNo: string;
  readonly companyPath: string;
}

export class ScriptedFleet {
  private readonly used = { east: 0, other: 0 };
  private readonly terminals: TestTerminal[] = [];

  private constructor(
    private readonly server: LiveTestServer,
    /** Company path of the `branch` demo user's company (the east branch). */
    readonly eastPath: string,
    readonly vehicles: readonly SeededVehicle[],
  ) {}

  static async open(server: LiveTestServer): Promise<ScriptedFleet> {
    const branchUser = await server.app.storage.users.findByUsername('branch');
    const eastPath = (await server.app.storage.companies.get(ALL_COMPANIES, branchUser!.companyId))!.path;
    const vehicles = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo, companyPath: v.companyPath }));
    return new ScriptedFleet(server, eastPath, vehicles);
  }

  /** A vehicle no other test used, inside or outside the east branch. */
  fresh(inEast = false): SeededVehicle {
    const v = this.vehicles.filter((x) => x.companyPath.startsWith(this.eastPath) === inEast)[inEast ? this.used.east++ : this.used.other++];
    if (!v) throw new Error('seed too small');
    return v;
  }

  /** A logged-in scripted terminal for the vehicle. */
  async terminal(v: { deviceNo: string }, version: 2013 | 2019 = 2013): Promise<TestTerminal> {
    const t = await TestTerminal.connect(this.server.gatewayPort, v.deviceNo, version);
    this.terminals.push(t);
    await t.login();
    return t;
  }

  async close(): Promise<void> {
    await Promise.all(this.terminals.map((t) => t.close()));
  }
}
