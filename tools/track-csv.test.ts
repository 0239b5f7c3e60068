import { describe, expect, it } from 'vitest';
import { parseTime, parseTrackCsv } from './track-csv.ts';

const EIGHT_AM_CHINA = Date.UTC(2024, 2, 1, 0, 0); // 2024-03-01 08:00 GMT+8

describe('CSV times', () => {
  it.each([
    ['2024-03-01T08:00:00+08:00', EIGHT_AM_CHINA],
    ['2024-03-01T00:00:00Z', EIGHT_AM_CHINA],
    ['2024-03-01T00:00:00.000z', EIGHT_AM_CHINA],
    ['2024-03-01 08:00:00', EIGHT_AM_CHINA],
    ['2024-03-01T08:00', EIGHT_AM_CHINA],
    ['2024-03-01T02:30:00+0230', EIGHT_AM_CHINA],
    ['2024-02-29T19:00:00-05:00', EIGHT_AM_CHINA],
    ['2024-03-01T08:00:00.5+08:00', EIGHT_AM_CHINA + 500],
    [String(EIGHT_AM_CHINA), EIGHT_AM_CHINA],
    ['2024-02-29T08:00:00+08:00', EIGHT_AM_CHINA - 86_400_000],
  ])('reads %s', (text, ms) => {
    expect(parseTime(text)).toBe(ms);
  });

  it('reads an ISO time without offset as China time whatever the machine time zone', () => {
    expect(parseTime('2024-03-01')).toBe(Date.UTC(2024, 1, 29, 16, 0));
  });

  it.each(['', 'yesterday', '2023-02-29T08:00:00', '2024-13-01T00:00:00', '2024-03-01T24:00:00', '2024-03-01T08:60',
    '2024-03-01T08:00:00+25:00', '1709251200000.5', '-1709251200000', '1e12', '2024-3-1'])('rejects %j', (text) => {
    expect(parseTime(text)).toBeUndefined();
  });
});

describe('CSV rows', () => {
  it('sorts rows by time keeping equal times in file order, and ignores extra columns and blank lines', () => {
    const r = parseTrackCsv('\uFEFFTime,Plate,LNG,lat,speed\r\n30,A,1,0,5\r\n\r\n10,A,2,0,5\r\n10,A,3,0,5\r\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Array.from(r.columns.time)).toEqual([10, 10, 30]);
    expect(Array.from(r.columns.lng)).toEqual([2, 3, 1]);
  });

  it('accepts quoted fields', () => {
    const r = parseTrackCsv('"time","lng","lat","speed"\n"2024-03-01T08:00:00+08:00","116.4","30","0"\n');
    expect(r.ok && Array.from(r.columns.time)).toEqual([EIGHT_AM_CHINA]);
  });

  it('refuses a header naming a column twice', () => {
    expect(parseTrackCsv('time,lng,lat,speed,lat\n')).toEqual({ ok: false, errors: ['line 1: header has column "lat" twice'] });
  });

  it('stops listing after 20 malformed lines and says how many more there are', () => {
    const text = 'time,lng,lat,speed\n' + 'x,1,1,1\n'.repeat(25);
    const r = parseTrackCsv(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(21);
    expect(r.errors[20]).toBe('… and 5 more malformed lines');
  });

  it.each([
    ['time,lng,lat,speed\n1,116.4,30,NaN\n', 'line 2: speed "NaN" is not a number'],
    ['time,lng,lat,speed\n1,116.4,30,1e999\n', 'line 2: speed "1e999" is not a finite number'],
    ['time,lng,lat,speed\n1,116.4,,0\n', 'line 2: lat "" is not a number'],
    ['time,lng,lat,speed\n1,116.4,-90.5,0\n', 'line 2: lat -90.5 is outside -90..90'],
  ])('refuses a bad number: %j', (text, message) => {
    expect(parseTrackCsv(text)).toEqual({ ok: false, errors: [message] });
  });
});
