import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (name: string) => path.join('tools', 'fixtures', name);

/** Runs the command exactly as `npm run track` does, as a child process. */
function track(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return trackWithInput('', ...args);
}

function trackWithInput(input: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tools/track-cli.ts', ...args], { cwd: root, encoding: 'utf8', input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run track -- analyze', { timeout: 30_000 }, () => {
  it('analyses a shuffled day with mixed time formats and reordered columns into the hand-computed result', () => {
    // tools/README.md walks through this fixture point by point.
    const r = track('analyze', fixture('analyst-day.csv'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const middle = (from: number, continuous = true) => ({ from, to: from + 1, km: 5.56, continuous });
    expect(JSON.parse(r.stdout)).toEqual({
      points: 16,
      drift: [2],
      gaps: [middle(3), middle(4), middle(5), middle(6), middle(7), middle(8, false), { from: 13, to: 14, km: 11.12, continuous: false }],
      discontinuous: 2,
      mileageKm: 47.258,
      stops: [{ from: 10, to: 12, minutes: 5 }],
    });
  });

  it('applies --stop-minutes, in both spellings', () => {
    expect(JSON.parse(track('analyze', fixture('analyst-day.csv'), '--stop-minutes', '6').stdout).stops).toEqual([]);
    expect(JSON.parse(track('analyze', fixture('analyst-day.csv'), '--stop-minutes=5').stdout).stops).toEqual([
      { from: 10, to: 12, minutes: 5 },
    ]);
  });

  it('answers zero points for an empty file and for a header alone', () => {
    const empty = { points: 0, drift: [], gaps: [], discontinuous: 0, mileageKm: 0, stops: [] };
    for (const f of ['empty.csv', 'header-only.csv']) {
      const r = track('analyze', fixture(f));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(empty);
    }
  });

  it.each([
    ['bad-field-count.csv', 'line 3: expected 4 fields as in the header, found 3'],
    ['bad-number.csv', 'line 4: lng "abc" is not a number'],
    ['bad-lat.csv', 'line 2: lat 95 is outside -90..90'],
    ['bad-lng.csv', 'line 2: lng 181 is outside -180..180'],
    ['bad-time.csv', 'line 3: time "2024-02-30T08:00:00+08:00" is not a valid ISO 8601 time or epoch milliseconds'],
    ['missing-column.csv', 'line 1: header lacks column "speed" (needs time,lng,lat,speed in any order)'],
  ])('rejects %s with its line number, exit code 1 and nothing on stdout', (file, message) => {
    const r = track('analyze', fixture(file));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${message}\n`);
  });

  it('refuses a track whose times lie centuries apart instead of allocating a slot per day', () => {
    const r = track('analyze', fixture('centuries-apart.csv'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('track: track spans 92592593 days (1970-01-01 to +255479-11-28); at most 36525\n');
  });

  it('reports every malformed line of a file, not just the first', () => {
    const r = track('analyze', fixture('several-bad.csv'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      'line 2: time "yesterday" is not a valid ISO 8601 time or epoch milliseconds',
      'line 4: lat 91 is outside -90..90',
      'line 5: speed -5 is below 0',
    ]);
  });

  it('refuses wrong usage with exit code 2 and the usage text, and documents the default in --help', () => {
    const bad = track('analyze', fixture('analyst-day.csv'), '--stop-minutes', '-1');
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--stop-minutes needs a number of minutes ≥ 0, got "-1"');
    expect(track('analyze').code).toBe(2);
    expect(track('replay', 'x.csv').code).toBe(2);
    const help = track('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--stop-minutes M   shortest stop to list, in minutes (default 3)');
  });

  it('reads standard input when the file is "-"', () => {
    const csv = 'time,lng,lat,speed\n2024-03-01T08:00:00+08:00,0,0,60\n2024-03-01T09:00:00+08:00,1,0,60\n';
    const r = trackWithInput(csv, 'analyze', '-');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ points: 2, mileageKm: 111.195, gaps: [{ from: 0, to: 1, km: 111.195, continuous: false }] });
  });

  it('is wired as the npm script "track"', () => {
    const r = spawnSync('npm', ['run', '-s', 'track', '--', 'analyze', fixture('header-only.csv')], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ points: 0 });
  });

  it('says which file it cannot read', () => {
    const r = track('analyze', fixture('no-such-file.csv'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^track: cannot read tools\/fixtures\/no-such-file\.csv: ENOENT/);
  });
});
