/**
 * The choice lists of the vehicle and driver forms that are plain code lists (plate colour, vehicle type,
 * licence class) read the data dictionary (issue 19, `useDictionary(kind)`, kept fresh by push): an
 * administrator's relabelling, reordering or disabling shows in an open form without a reload. The server
 * checks the same rule (server/resources/dictionary-codes.ts): an enabled code of the kind, or the one the
 * record already has — so the record's current code stays in the list, labelled, even once disabled.
 * Only codes the platform stores and speaks are offered (the `known` list of domain/fleet/limits.ts; the
 * request schema holds the same list): a code added to these built-in kinds would be refused on save.
 * Until the dictionary has answered, the built-in list (the dictionary's seed) stands in.
 */
import { useMemo } from 'react';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { useDictionary, type DictEntry } from '../system-config/api.ts';

export interface CodeOption { value: string; label: string }

/** The options of one code list: the dictionary's enabled known codes in its order, plus `current` when it is missing. */
export function dictOptions(
  entries: readonly DictEntry[] | undefined, known: readonly (string | number)[], builtinLabel: (code: string) => string, lang: Lang, current?: string,
): CodeOption[] {
  const knownSet = new Set(known.map(String));
  const label = (e: DictEntry) => (lang === 'zh' ? e.codeCnname : e.codeEnname || e.codeCnname);
  const options = entries
    ? entries.filter((e) => knownSet.has(e.code)).map((e) => ({ value: e.code, label: label(e) }))
    : [...knownSet].map((c) => ({ value: c, label: builtinLabel(c) }));
  if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: builtinLabel(current) });
  return options;
}

/** `dictOptions` over `useDictionary(kind)`. */
export function useDictOptions(kind: string, known: readonly (string | number)[], builtinLabel: (code: string) => string, lang: Lang, current?: string): CodeOption[] {
  const entries = useDictionary(kind);
  // builtinLabel is a fresh closure per render; the list depends on the rest.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => dictOptions(entries, known, builtinLabel, lang, current), [entries, known, lang, current]);
}
