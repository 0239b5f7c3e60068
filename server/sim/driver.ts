/**
 * The simulated driver of each terminal: after authenticating, a simulated terminal reports its
 * driver's qualification card (JT/T 808 0x0702 inserted), so the alarm statistics have drivers to
 * attribute alarms to. Deterministic per device number; one terminal in five has no card reader
 * and never signs anyone in (its alarms stay with the vehicle's unidentified driver).
 */
import type { DriverIdentity } from '../gateway/jt808/driver.ts';

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '马', '朱', '胡', '郭'];
const GIVEN = ['建国', '伟', '强', '磊', '军', '勇', '杰', '涛', '明', '超', '华', '平', '刚', '辉', '鹏', '斌'];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** The card a simulated terminal reports at `time`, or null for a terminal without a card reader. */
export function simDriverCard(deviceNo: string, time: number): DriverIdentity | null {
  const h = hash(deviceNo);
  if (h % 5 === 0) return null;
  const name = `${SURNAMES[(h >>> 3) % SURNAMES.length]!}${GIVEN[(h >>> 9) % GIVEN.length]!}`;
  return {
    msgId: 0x0702, status: 1, time: Math.floor(time / 1000) * 1000, readResult: 0, name,
    certificate: `33${deviceNo.slice(-12).padStart(12, '0')}${String(h % 10000).padStart(4, '0')}`,
    authority: '道路运输管理局', validUntil: '2030-12-31', idCard: '',
  };
}
