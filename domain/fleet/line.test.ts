import { describe, expect, it } from 'vitest';
import { LINE_LIMITS } from './limits.ts';
import {
  bestInsertIndex, cumulativeKm, directionLengthKm, insertStation, moveStation, nextStationName, relocateStation, removeStation,
  renameStation, reversed, sameStations, stationProblems, stationProblemText, validPosition, type Station,
} from './line.ts';

const s = (name: string, lng: number, lat: number): Station => ({ name, lng, lat });
// Three stops along Renmin Road, Suzhou, roughly 1 km apart north to south.
const A = s('火车站', 120.6106, 31.3303);
const B = s('北寺塔', 120.6161, 31.3226);
const C = s('察院场', 120.6187, 31.3111);

describe('station rules', () => {
  it('accepts an ordered list of distinct, well-placed stations', () => {
    expect(stationProblems([A, B, C])).toEqual([]);
    expect(stationProblems([])).toEqual([]);
  });

  it('names each problem by its position', () => {
    const problems = stationProblems([A, s('  ', 120.6, 31.3), s('北寺塔', 120.61, 31.32), s('北寺塔 ', 0, 0), s('x'.repeat(LINE_LIMITS.stationNameMax + 1), 200, 31)]);
    expect(problems).toEqual([
      { code: 'nameRequired', index: 1 },
      { code: 'duplicateName', index: 3, name: '北寺塔', first: 2 },
      { code: 'badPosition', index: 3 },
      { code: 'nameTooLong', index: 4, max: LINE_LIMITS.stationNameMax },
      { code: 'badPosition', index: 4 },
    ]);
    expect(stationProblemText(problems[1]!, 'zh')).toBe('第 4 个站点「北寺塔」与第 3 个重名');
    expect(stationProblemText(problems[1]!, 'en')).toBe('Station 4 "北寺塔" has the same name as station 3');
  });

  it('names compare case-insensitively; the same stop may be in both directions (rules are per direction)', () => {
    expect(stationProblems([s('Airport', 113.81, 22.64), s('airport', 113.9, 22.6)])[0]).toMatchObject({ code: 'duplicateName', index: 1 });
  });

  it('refuses more than the limit', () => {
    const many = Array.from({ length: LINE_LIMITS.stationsMax + 1 }, (_, i) => s(`站 ${i}`, 120 + i * 1e-3, 31));
    expect(stationProblems(many)).toEqual([{ code: 'tooMany', max: LINE_LIMITS.stationsMax }]);
  });

  it('positions: finite, in range, not (0, 0)', () => {
    expect(validPosition(120.6, 31.3)).toBe(true);
    expect(validPosition(0, 0)).toBe(false);
    expect(validPosition(Number.NaN, 31)).toBe(false);
    expect(validPosition(181, 31)).toBe(false);
    expect(validPosition(120, -91)).toBe(false);
  });
});

describe('length along the stations', () => {
  it('sums the legs in order, so order matters', () => {
    const ab = directionLengthKm([A, B]);
    const bc = directionLengthKm([B, C]);
    expect(ab).toBeGreaterThan(0.9);
    expect(ab).toBeLessThan(1.1);
    expect(directionLengthKm([A, B, C])).toBeCloseTo(ab + bc, 9);
    expect(directionLengthKm([A, C, B])).toBeGreaterThan(ab + bc);
    expect(directionLengthKm([A])).toBe(0);
    expect(cumulativeKm([A, B, C])).toEqual([0, ab, ab + bc]);
  });
});

describe('list operations', () => {
  it('insert, move, rename, relocate, remove and reverse answer new lists', () => {
    const list = [A, C];
    const inserted = insertStation(list, s(' 北寺塔 ', 120.61612345678, 31.3226), 1);
    expect(inserted.map((x) => x.name)).toEqual(['火车站', '北寺塔', '察院场']);
    expect(inserted[1]!.lng).toBe(120.616123);
    expect(list).toEqual([A, C]);
    expect(insertStation(list, B).map((x) => x.name)).toEqual(['火车站', '察院场', '北寺塔']);
    expect(moveStation([A, B, C], 0, 2).map((x) => x.name)).toEqual(['北寺塔', '察院场', '火车站']);
    expect(moveStation([A, B, C], 2, 0).map((x) => x.name)).toEqual(['察院场', '火车站', '北寺塔']);
    expect(moveStation([A, B, C], 1, 9).map((x) => x.name)).toEqual(['火车站', '察院场', '北寺塔']);
    expect(renameStation([A, B], 1, '北寺塔北')[1]!.name).toBe('北寺塔北');
    expect(relocateStation([A, B], 0, 120.1234567, 31.7654321)[0]).toEqual({ name: '火车站', lng: 120.123457, lat: 31.765432 });
    expect(removeStation([A, B, C], 1)).toEqual([A, C]);
    expect(reversed([A, B, C]).map((x) => x.name)).toEqual(['察院场', '北寺塔', '火车站']);
  });

  it('a new station gets a free name', () => {
    expect(nextStationName([], '站点')).toBe('站点 1');
    expect(nextStationName([s('站点 2', 1, 1)], '站点')).toBe('站点 3');
    expect(nextStationName([s('站点 2', 1, 1), s('站点 3', 1, 1)], '站点')).toBe('站点 4');
  });

  it('a click between two stations inserts between them, beyond the ends before or after', () => {
    expect(bestInsertIndex([A, C], 120.6161, 31.3226)).toBe(1);
    expect(bestInsertIndex([A, B, C], 120.6200, 31.3000)).toBe(3);
    expect(bestInsertIndex([A, B, C], 120.6090, 31.3400)).toBe(0);
    expect(bestInsertIndex([A], 1, 1)).toBe(1);
  });

  it('compares lists by name, order and stored precision', () => {
    expect(sameStations([A, B], [{ ...A, name: ' 火车站 ' }, { ...B, lng: B.lng + 1e-9 }])).toBe(true);
    expect(sameStations([A, B], [B, A])).toBe(false);
  });
});
