/**
 * Server messages beyond the shared catalogue (domain/errors/catalogue.ts), in both languages.
 * A message is a function of the language so handlers can build them before the language is known.
 */
import type { Lang } from '../../domain/errors/catalogue.ts';

export type Message = (lang: Lang) => string;

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);

export const Messages = {
  notFound: pair('数据不存在', 'Record not found'),
  companyOutOfScope: pair('无权访问该公司的数据', 'You have no access to that company'),
  usernameTaken: pair('用户名已存在', 'The user name is already taken'),
  cannotDeleteSelf: pair('不能删除当前登录的用户', 'You cannot delete the user you are signed in as'),
  levelAboveOwn: pair('不能创建或修改级别高于自己的用户', 'You cannot create or change users above your own level'),
  cannotGrant: pair('不能授予自己没有的权限', 'You cannot grant permissions you do not hold'),
  moveIntoOwnSubtree: pair('不能把公司移到它自己或它的下级公司之下', 'A company cannot move under itself or its own subcompanies'),
  ownRootCompany: pair('不能删除或移动本账号所属的公司', 'You cannot delete or move the company your account belongs to'),
  newRootAdminOnly: pair('只有管理员可以创建顶级公司', 'Only an administrator can create a top-level company'),
  catalogueSuperAdminOnly: pair('只有超级管理员可以修改权限目录', 'Only a super administrator can change the permission catalogue'),
  roleInUse: (count: number): Message => pair(`该角色仍分配给 ${count} 个用户，不能删除`, `The role is still assigned to ${count} user(s) and cannot be deleted`),
  companyInUse: (name: string, usage: { children: number; vehicles: number; users: number; roles: number; lines: number; deviceTypes?: number }): Message => (lang) => {
    const parts: string[] = [];
    const add = (n: number, zh: string, en: string) => {
      if (n > 0) parts.push(lang === 'zh' ? `${n} 个${zh}` : `${n} ${en}`);
    };
    add(usage.children, '下级公司', 'subcompanies');
    add(usage.vehicles, '车辆', 'vehicles');
    add(usage.users, '用户', 'users');
    add(usage.roles, '角色', 'roles');
    add(usage.lines, '线路', 'lines');
    add(usage.deviceTypes ?? 0, '设备类型', 'device types');
    return lang === 'zh' ? `公司「${name}」下还有${parts.join('、')}，不能删除` : `Company "${name}" still has ${parts.join(', ')} and cannot be deleted`;
  },
  allPermissions: pair('全部权限', 'All permissions'),
  consoleNotBuilt: pair('控制台尚未构建：请运行 npm run build', 'The console is not built yet: run npm run build'),
} as const;
