/**
 * The i18n layer: i18next + react-i18next with Chinese (default) and English, the choice stored in
 * localStorage 'lang'. Features register their own namespace with `registerMessages` at module load
 * and read it with `useT(namespace)`. Menu titles come from the permission registry (namespace
 * 'menu', keyed by route key) and are read with `menuTitle(key)` because route keys contain ':'
 * and '/' which i18next would otherwise treat as separators.
 */
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { PERMISSION_REGISTRY } from '../../domain/permissions/registry.ts';
import { commonMessages } from './common.ts';

export type { Lang };
export const LANGUAGES: readonly Lang[] = ['zh', 'en'];
export const DEFAULT_LANG: Lang = 'zh';
const STORAGE_KEY = 'lang';

export function isLang(value: unknown): value is Lang {
  return value === 'zh' || value === 'en';
}

function storedLang(): Lang {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLang(v) ? v : DEFAULT_LANG;
  } catch {
    return DEFAULT_LANG;
  }
}

export const i18n = i18next.createInstance();

const menuZh: Record<string, string> = {};
const menuEn: Record<string, string> = {};
for (const e of PERMISSION_REGISTRY) {
  menuZh[e.key] = e.zh;
  menuEn[e.key] = e.en;
}

void i18n.use(initReactI18next).init({
  lng: storedLang(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: ['zh', 'en'],
  defaultNS: 'common',
  ns: ['common', 'menu'],
  resources: {
    zh: { common: commonMessages.zh, menu: menuZh },
    en: { common: commonMessages.en, menu: menuEn },
  },
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false, // resources are bundled: translate on the first render
  returnNull: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = i18n.language === 'en' ? 'en' : 'zh-CN';

/** Adds (or extends) a feature's namespace in both languages. Call once at module load. */
export function registerMessages(namespace: string, messages: { zh: Record<string, unknown>; en: Record<string, unknown> }): void {
  i18n.addResourceBundle('zh', namespace, messages.zh, true, true);
  i18n.addResourceBundle('en', namespace, messages.en, true, true);
}

/** The current interface language. */
export function currentLang(): Lang {
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
}

/** Switches the language, stores it and updates <html lang>. Components re-render through react-i18next. */
export function setLanguage(lang: Lang): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // storage may be unavailable (private mode): the switch still applies to this page
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
  void i18n.changeLanguage(lang);
}

/** `const t = useT('user'); t('title')` — the namespace's translate function; re-renders on language change. */
export function useT(namespace = 'common') {
  return useTranslation(namespace, { i18n }).t;
}

/** The current language as React state. */
export function useLang(): Lang {
  const { i18n: inst } = useTranslation('common', { i18n });
  return isLang(inst.language) ? inst.language : DEFAULT_LANG;
}

/** Menu title of a registry key (route or button) in the current language; the key itself when unknown. */
export function menuTitle(key: string, lang?: Lang): string {
  return i18n.t(key, { ns: 'menu', keySeparator: false, nsSeparator: false, lng: lang ?? currentLang(), defaultValue: key });
}

/** Translate outside React (e.g. in the request client). */
export function translate(key: string, options?: Record<string, unknown>, namespace = 'common'): string {
  return i18n.t(key, { ns: namespace, ...options });
}
