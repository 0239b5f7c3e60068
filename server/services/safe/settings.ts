/**
 * Alarm types and settings: the type lists (`alarmInfo/findAll...`, `classic`), company settings
 * (enable, auto-handle, platform level, linkage) and the user's pop-up settings.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { byCode, isClassification } from '../../../domain/alarms/catalogue.ts';
import { DRIVER_FATIGUE_SET, RISK_LEVELS, VEHICLE_RISK_SET, defaultRiskLevel, type RiskLevel } from '../../../domain/alarms/sources.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { AlarmTypeRecord, CompanyAlarmSettingPatch } from '../../db/alarm-types.ts';
import type { Storage } from '../../db/repositories.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Code, Strict, UrlText, type App } from '../../http/route.ts';
import type { AlarmService } from '../../alarms/service.ts';
import { SafeMessages } from './messages.ts';

export const RiskLevelField = Type.Union(RISK_LEVELS.map((l) => Type.Literal(l)));
const TypeList = Type.Array(Code, { minItems: 1, maxItems: 500, uniqueItems: true });

function typeView(t: AlarmTypeRecord, lang: Lang) {
  return { alarmType: t.code, alarmName: lang === 'en' ? (t.en ?? t.zh) : t.zh, nameZh: t.zh, nameEn: t.en, group: t.group, isGroup: t.group === 1 };
}

/** The company a settings call works on: `companyId` (inside the caller's subtree, else 403) or the caller's own. */
async function settingsCompany(storage: Storage, ctx: AuthContext, companyId: number | undefined): Promise<{ id: number; path: string }> {
  const scope = await narrowedScope(storage, ctx, companyId);
  const id = companyId ?? ctx.user.companyId;
  const company = await storage.companies.get(scope, id);
  if (!company) throw fail.notFound();
  return { id: company.id, path: company.path };
}

function checkTypes(types: readonly number[]): void {
  for (const code of types) {
    if (isClassification(code)) throw fail.badRequest(SafeMessages.notRaisable(code));
    if (byCode(code) === undefined) throw fail.badRequest(SafeMessages.unknownType(code));
  }
}

export function settingsRoutes(app: App, deps: { storage: Storage; alarms: AlarmService }): void {
  const { storage, alarms } = deps;
  const now = () => Date.now();

  const typeList = (filter: (t: AlarmTypeRecord) => boolean) => async (request: FastifyRequest) => {
    const lang = requestLang(request);
    return ok((await storage.alarms.listTypes()).filter(filter).map((t) => typeView(t, lang)), lang);
  };
  const session = { config: { permission: 'session' as const }, schema: { querystring: Strict({}) } };
  // Every type with its group headings (tree pickers); the "without user" variant is the same list for
  // callers that do not want the user's settings applied (there are no per-user type filters yet).
  app.get('/service-safe/alarmInfo/findAllAlarmTypeList', session, typeList(() => true));
  app.get('/service-safe/alarmInfo/findAllAlarmTypeListWithoutUser', session, typeList(() => true));
  // The types a platform level can be set for: every raisable type (headings excluded).
  app.get('/service-safe/alarmInfo/findAlarmTypeListForPlatformRated', session, typeList((t) => t.group !== 1));
  // The dashboard's classic sets (spec §9): driver fatigue and vehicle risk.
  app.get('/service-safe/alarmInfo/classic', session, async (request) => {
    const lang = requestLang(request);
    const types = new Map((await storage.alarms.listTypes()).map((t) => [t.code, t]));
    const set = (codes: readonly number[]) => codes.flatMap((c) => { const t = types.get(c); return t ? [typeView(t, lang)] : []; });
    return ok({ driverFatigue: set(DRIVER_FATIGUE_SET), vehicleRisk: set(VEHICLE_RISK_SET) }, lang);
  });

  // ── company settings ──
  const settingsPage = '/safeManagement/alarmSettings/index' as const;
  const levelPage = '/safeManagement/alarmSettings/platformLevelPage' as const;
  const linkagePage = '/safeManagement/alarmSettings/alarmLinkagePage' as const;

  async function companySettings(companyPath: string, lang: Lang) {
    const types = (await storage.alarms.listTypes()).filter((t) => t.group !== 1);
    return types.map((t) => {
      const s = alarms.effectiveSetting(companyPath, t.code);
      return { ...typeView(t, lang), ...s, defaultRiskLevel: defaultRiskLevel(t.code) ?? 'ordinary' };
    });
  }

  app.get('/service-safe/companysetting/findCompanyAlarmSetting', {
    config: { permission: settingsPage },
    schema: { querystring: Strict({ group: Type.Optional(Code) }) },
  }, async (request) => {
    const lang = requestLang(request);
    const company = await settingsCompany(storage, auth(request), request.query.companyId);
    const list = await companySettings(company.path, lang);
    const group = request.query.group;
    return ok({ companyId: company.id, records: group === undefined ? list : list.filter((s) => s.group === group) }, lang);
  });

  const patchRoute = (path: string, permission: typeof settingsPage | typeof levelPage | typeof linkagePage, body: ReturnType<typeof Strict>, toPatch: (b: Record<string, unknown>) => CompanyAlarmSettingPatch) => {
    app.post(path, { config: { permission }, schema: { body } }, async (request) => {
      const b = request.body as Record<string, unknown> & { alarmTypes: number[]; companyId?: number };
      checkTypes(b.alarmTypes);
      const company = await settingsCompany(storage, auth(request), b.companyId);
      await storage.alarms.patchSettings(company.id, b.alarmTypes, toPatch(b), now(), (code) => alarms.rowBase(company.path, code));
      await alarms.reloadSettings();
      return ok({ companyId: company.id, alarmTypes: b.alarmTypes }, requestLang(request));
    });
  };
  patchRoute('/service-safe/companysetting/doCompanyAlarmSettingEnableStatus', settingsPage,
    Strict({ alarmTypes: TypeList, enabled: Type.Boolean() }), (b) => ({ enabled: b.enabled as boolean }));
  patchRoute('/service-safe/companysetting/doCompanyAlarmSettingHandleStatus', settingsPage,
    Strict({ alarmTypes: TypeList, autoHandle: Type.Boolean() }), (b) => ({ autoHandle: b.autoHandle as boolean }));
  // Ours (the linkage page has no call in the catalogue): pop-up / voice / TTS per type.
  patchRoute('/service-safe/companysetting/doCompanyAlarmSettingLinkage', linkagePage,
    Strict({ alarmTypes: TypeList, popup: Type.Optional(Type.Boolean()), voice: Type.Optional(Type.Boolean()), tts: Type.Optional(Type.Boolean()) }),
    (b) => ({ popup: b.popup as boolean | undefined, voice: b.voice as boolean | undefined, tts: b.tts as boolean | undefined }));

  app.get('/service-safe/companysetting/findCompanyAlarmLevelSetting', {
    config: { permission: levelPage },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const lang = requestLang(request);
    const company = await settingsCompany(storage, auth(request), request.query.companyId);
    const enabled = (await storage.alarms.levelSwitch(company.id)) ?? true;
    const records = (await companySettings(company.path, lang)).map((s) => ({
      alarmType: s.alarmType, alarmName: s.alarmName, group: s.group, riskLevel: s.riskLevel, defaultRiskLevel: s.defaultRiskLevel,
    }));
    return ok({ companyId: company.id, enabled, records }, lang);
  });

  app.post('/service-safe/companysetting/saveCompanyAlarmLevelSetting', {
    config: { permission: levelPage },
    schema: { body: Strict({ items: Type.Array(Strict({ alarmType: Code, riskLevel: Type.Union([RiskLevelField, Type.Null()]) }), { minItems: 1, maxItems: 500 }) }) },
  }, async (request) => {
    const { items, companyId } = request.body;
    checkTypes(items.map((i) => i.alarmType));
    const company = await settingsCompany(storage, auth(request), companyId);
    for (const item of items) {
      const level = item.riskLevel as RiskLevel | null;
      await storage.alarms.patchSettings(company.id, [item.alarmType], { riskLevel: level }, now(), (code) => alarms.rowBase(company.path, code, level));
    }
    await alarms.reloadSettings();
    return ok({ companyId: company.id, saved: items.length }, requestLang(request));
  });

  app.post('/service-safe/companysetting/enableCompanyAlarmLevelSetting', {
    config: { permission: levelPage },
    schema: { body: Strict({ enabled: Type.Boolean() }) },
  }, async (request) => {
    const company = await settingsCompany(storage, auth(request), request.body.companyId);
    await storage.alarms.setLevelSwitch(company.id, request.body.enabled, now());
    await alarms.reloadSettings();
    return ok({ companyId: company.id, enabled: request.body.enabled }, requestLang(request));
  });

  // ── the caller's own pop-up settings ──
  const popView = async (userId: number) => {
    const s = await storage.alarms.userPop(userId);
    return { userId, popup: s?.popup ?? true, voice: s?.voice ?? true, voiceUrl: s?.voiceUrl ?? '' };
  };
  app.get('/service-safe/usersetting/findUserAlarmPopSettingDetail', session, async (request) => ok(await popView(auth(request).user.id), requestLang(request)));
  const popRoute = (suffix: string, body: ReturnType<typeof Strict>, patch: (b: Record<string, unknown>) => { popup?: boolean; voice?: boolean; voiceUrl?: string }) => {
    app.post(`/service-safe/usersetting/doUserAlarmPopSettingDetail${suffix}`, { config: { permission: 'session' }, schema: { body } }, async (request) => {
      const userId = auth(request).user.id;
      await storage.alarms.patchUserPop(userId, patch(request.body as Record<string, unknown>), now());
      return ok(await popView(userId), requestLang(request));
    });
  };
  popRoute('Popup', Strict({ popup: Type.Boolean() }), (b) => ({ popup: b.popup as boolean }));
  popRoute('Voice', Strict({ voice: Type.Boolean() }), (b) => ({ voice: b.voice as boolean }));
  popRoute('VoiceUrl', Strict({ voiceUrl: UrlText(500) }), (b) => ({ voiceUrl: (b.voiceUrl as string).trim() }));
}
