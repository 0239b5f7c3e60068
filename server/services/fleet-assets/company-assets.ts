/**
 * Issue 15: a company that still owns devices or drivers is not deleted either (companies.ts
 * checkDelete). The refusal names every kind of record still there, in the words of Messages.companyInUse.
 */
import type { Repositories } from '../../db/repositories.ts';
import { fail } from '../../http/envelope.ts';
import { Messages, type Message } from '../../http/messages.ts';

type Usage = Parameters<typeof Messages.companyInUse>[1];

/** Throws 409 when the company still has any record of `usage` or any device or driver. */
export async function assertCompanyUnused(tx: Repositories, name: string, companyId: number, usage: Usage): Promise<void> {
  const { devices, drivers } = await tx.vehicles.companyAssets(companyId);
  const standard = usage.children + usage.vehicles + usage.users + usage.roles + usage.lines + (usage.deviceTypes ?? 0);
  if (standard + devices + drivers === 0) return;
  if (devices + drivers === 0) throw fail.conflict(Messages.companyInUse(name, usage));
  const message: Message = (lang) => {
    const extra = [[devices, '设备', 'devices'], [drivers, '驾驶员', 'drivers']] as const;
    const parts = extra.filter(([n]) => n > 0).map(([n, zh, en]) => (lang === 'zh' ? `${n} 个${zh}` : `${n} ${en}`));
    if (standard === 0) return lang === 'zh' ? `公司「${name}」下还有${parts.join('、')}，不能删除` : `Company "${name}" still has ${parts.join(', ')} and cannot be deleted`;
    // The standard sentence with the devices and drivers put in before its ending.
    const base = Messages.companyInUse(name, usage)(lang);
    return lang === 'zh' ? base.replace('，不能删除', `、${parts.join('、')}，不能删除`) : base.replace(' and cannot be deleted', `, ${parts.join(', ')} and cannot be deleted`);
  };
  throw fail.conflict(message);
}
