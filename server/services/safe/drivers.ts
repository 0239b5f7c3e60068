/**
 * Driver sign-in (JT/T 808 0x0702): the gateway hands each driver identity report here; a card read
 * at insertion makes that driver the vehicle's current one, a removal or an unreadable card clears
 * it. The `alarm_driver` trigger (migration 11) records the current driver on every new alarm,
 * which is what the statistics' driver dimension counts (server/API.md "Alarm statistics").
 */
import type { Storage } from '../../db/repositories.ts';
import { DRIVER_IDENTITY } from '../../gateway/jt808/driver.ts';
import type { Jt808Gateway } from '../../gateway/server.ts';

export function driverSignIn(gateway: Jt808Gateway, storage: Storage, clock: () => number): void {
  gateway.handleTerminalMessage(DRIVER_IDENTITY, async ({ vehicleId, message }) => {
    if (message.msgId !== DRIVER_IDENTITY) return;
    const identified = message.status === 1 && message.readResult === 0 && (message.certificate !== '' || message.name !== '');
    // A card time the terminal does not know (all zeros) counts from now.
    const signInTime = Number.isFinite(message.time) ? message.time : clock();
    await storage.transaction(async (tx) => {
      await tx.alarmStats.setDriver(vehicleId, identified ? { cert: message.certificate, name: message.name, signInTime } : null, clock());
      // Issue 15: the sign-in history of /information/driver, linked to the driver entered with this certificate number.
      await tx.drivers.recordSignIn(vehicleId, identified ? { kind: 'in', cert: message.certificate, name: message.name, time: signInTime } : { kind: 'out', time: signInTime });
    });
  });
}
