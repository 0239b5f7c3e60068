import { describe, expect, it } from 'vitest';
import { vinCheckDigit } from '../../../domain/fleet/vin.ts';
import { dayMs, dayText, initialValues, moveProblem, toInput, validateVehicleForm, vinFormProblem } from './vehicle-form.ts';

function validVin(): string {
  const draft = 'LFV2A21K012345678';
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

describe('vehicle form rules', () => {
  it('checks the VIN live with the domain rule: required, 17 characters, no I/O/Q, check digit', () => {
    expect(vinFormProblem('')).toEqual({ key: 'required' });
    expect(vinFormProblem('LFV2A21K0')).toEqual({ key: 'vinLength' });
    expect(vinFormProblem('LFV2A21KO12345678')).toEqual({ key: 'vinCharacters' });
    const good = validVin();
    expect(vinFormProblem(good)).toBeUndefined();
    expect(vinFormProblem(good.toLowerCase())).toBeUndefined(); // stored upper-case
    const wrong = `${good.slice(0, 8)}${good[8] === '1' ? '2' : '1'}${good.slice(9)}`;
    expect(vinFormProblem(wrong)).toEqual({ key: 'vinCheckDigit' });
  });

  it('refuses an empty or too long plate, a long remark and long channel names', () => {
    const v = { ...initialValues(), vin: validVin() };
    expect(validateVehicleForm(v)).toEqual({ vehiidno: { key: 'required' } });
    expect(validateVehicleForm({ ...v, vehiidno: 'x'.repeat(17) }).vehiidno).toEqual({ key: 'max', params: { max: 16 } });
    expect(validateVehicleForm({ ...v, vehiidno: '沪A12345', remark: 'r'.repeat(201) })).toEqual({ remark: { key: 'max', params: { max: 200 } } });
    expect(validateVehicleForm({ ...v, vehiidno: '沪A12345', channelCount: 2, channelNames: ['前', 'n'.repeat(17)] })).toEqual({ 'channelNames.1': { key: 'max', params: { max: 16 } } });
  });

  it('sends channels 1..count with their names and dates as China-day starts', () => {
    const input = toInput({ ...initialValues(), vehiidno: ' 沪A12345 ', vin: validVin().toLowerCase(), channelCount: 2, channelNames: ['前方', ' 车内 ', '旧名'], insuranceExpire: '2026-12-01' });
    expect(input.vehiidno).toBe('沪A12345');
    expect(input.vin).toBe(validVin());
    expect(input.channels).toEqual([{ channel: 1, kind: 'video', name: '前方' }, { channel: 2, kind: 'video', name: '车内' }]);
    expect(input.insuranceExpire).toBe(Date.UTC(2026, 11, 1) - 8 * 3_600_000);
    expect(input.inspectionExpire).toBeNull();
    expect(dayText(dayMs('2026-02-28'))).toBe('2026-02-28');
  });

  it('a move needs 1..500 selected vehicles', () => {
    expect(moveProblem(0)).toBe('moveNone');
    expect(moveProblem(500)).toBeUndefined();
    expect(moveProblem(501)).toBe('moveTooMany');
  });
});
