import { describe, expect, it } from 'vitest';
import type { DictEntry } from '../system-config/api.ts';
import { dictOptions } from './dict-options.ts';

const entry = (code: string, zh: string, en = ''): DictEntry => ({
  id: 1, parentId: 9, kind: 'vehicleType', code, codeCnname: zh, codeEnname: en, sort: 0, enabled: true, builtin: true, remark: '', updateTime: 0,
});
const builtin = (c: string) => `内置${c}`;

describe("the forms' code lists from the dictionary", () => {
  it("offer the dictionary's enabled codes with its labels in its order (an administrator's relabel and reorder show)", () => {
    // useDictionary answers enabled codes only, in the dictionary's order.
    const entries = [entry('taxi', '出租车（改）', 'Cab'), entry('bus', '公交车')];
    expect(dictOptions(entries, ['bus', 'coach', 'taxi'], builtin, 'zh')).toEqual([{ value: 'taxi', label: '出租车（改）' }, { value: 'bus', label: '公交车' }]);
    expect(dictOptions(entries, ['bus', 'coach', 'taxi'], builtin, 'en')).toEqual([{ value: 'taxi', label: 'Cab' }, { value: 'bus', label: '公交车' }]);
  });

  it("keep the record's own code when it was disabled since, and leave out codes the platform cannot store", () => {
    const entries = [entry('bus', '公交车'), entry('hovercraft', '气垫船')];
    expect(dictOptions(entries, ['bus', 'coach'], builtin, 'zh', 'coach')).toEqual([{ value: 'bus', label: '公交车' }, { value: 'coach', label: '内置coach' }]);
  });

  it('stand in with the built-in list until the dictionary answers; plate colours are numbers as text', () => {
    expect(dictOptions(undefined, [1, 2], (c) => ({ 1: '蓝色', 2: '黄色' })[c] ?? c, 'zh')).toEqual([{ value: '1', label: '蓝色' }, { value: '2', label: '黄色' }]);
  });
});
