import { describe, expect, it } from 'vitest';
import { periodValue } from '../../../domain/period/period.ts';
import type { Installation } from './api.ts';
import {
  bytesToBase64, createKind, initialCreate, initialEdit, readPhoto, toCreate, toUpdate, validateCreate, validateEdit, type CreateFormValues, type PickedPhoto,
} from './installation-form.ts';

const NOW = new Date(2026, 10, 25, 10, 0).getTime();
const base = (): CreateFormValues => ({ ...initialCreate(new Date(NOW)), vehicleId: 7 });
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const ok = (name: string): PickedPhoto => ({ key: name, name, type: 'image/jpeg', size: 7, data: bytesToBase64(jpeg) });

describe('the create form', () => {
  it('records install, replace or remove from the vehicle\'s device now, and nothing when nothing changes', () => {
    expect(createKind(null, { action: 'bind', deviceNo: '013800000001' })).toBe('install');
    expect(createKind('013800000002', { action: 'bind', deviceNo: '013800000001' })).toBe('replace');
    expect(createKind('013800000002', { action: 'remove', deviceNo: null })).toBe('remove');
    expect(createKind('013800000002', { action: 'bind', deviceNo: '013800000002' })).toBeUndefined();
    expect(createKind(null, { action: 'remove', deviceNo: null })).toBeUndefined();
  });

  it('asks for a vehicle and a device, refuses the same device, a removal without one, a bad number', () => {
    expect(validateCreate({ ...base(), vehicleId: null }, undefined, NOW).vehicleId).toEqual({ key: 'required' });
    expect(validateCreate(base(), null, NOW).deviceNo).toEqual({ key: 'required' });
    expect(validateCreate({ ...base(), deviceNo: '013800000002' }, '013800000002', NOW).deviceNo).toEqual({ key: 'sameDevice' });
    expect(validateCreate({ ...base(), action: 'remove' }, null, NOW).deviceNo).toEqual({ key: 'nothingToRemove' });
    expect(validateCreate({ ...base(), deviceNo: '12345' }, null, NOW).deviceNo).toEqual({ key: 'deviceNo' });
    expect(validateCreate({ ...base(), deviceNo: '013800000001' }, null, NOW)).toEqual({});
    expect(validateCreate({ ...base(), action: 'remove' }, '013800000002', NOW)).toEqual({});
  });

  it('holds the installer to 32 and the remark to 200 characters, and the time to now', () => {
    const v = { ...base(), deviceNo: '013800000001' };
    expect(validateCreate({ ...v, installer: 'x'.repeat(33) }, null, NOW).installer).toEqual({ key: 'max', params: { max: 32 } });
    expect(validateCreate({ ...v, remark: 'x'.repeat(201) }, null, NOW).remark).toEqual({ key: 'max', params: { max: 200 } });
    expect(validateCreate({ ...v, installTime: periodValue(new Date(NOW + 3_600_000), 'datetime') }, null, NOW).installTime).toEqual({ key: 'future' });
    expect(validateCreate({ ...v, installTime: '' }, null, NOW).installTime).toEqual({ key: 'required' });
  });

  it('refuses a photo with a problem (named) and more than 9 photos', () => {
    const v = { ...base(), deviceNo: '013800000001' };
    const bad: PickedPhoto = { key: 'b', name: 'x.gif', type: 'image/gif', size: 6, data: '', problem: { code: 'photoType', name: 'x.gif' } };
    expect(validateCreate({ ...v, photos: [ok('a.jpg'), bad] }, null, NOW).photos).toEqual({ photo: { code: 'photoType', name: 'x.gif' } });
    expect(validateCreate({ ...v, photos: Array.from({ length: 10 }, (_, i) => ok(`${i}.jpg`)) }, null, NOW).photos).toEqual({ photo: { code: 'photoCount', max: 9 } });
    expect(validateCreate({ ...v, photos: Array.from({ length: 9 }, (_, i) => ok(`${i}.jpg`)) }, null, NOW).photos).toBeUndefined();
  });

  it('sends null for a removal, the time in epoch ms, and photos only when there are some', () => {
    const time = periodValue(new Date(NOW - 60_000), 'datetime');
    expect(toCreate({ ...base(), action: 'remove', deviceNo: '013800000001', installTime: time, installer: ' 王 ' })).toEqual({
      vehicleId: 7, deviceNo: null, installer: '王', installTime: new Date(`${time}:00`).getTime(), remark: '',
    });
    expect(toCreate({ ...base(), deviceNo: '013800000001', photos: [ok('a.jpg')] }).photos).toEqual([{ name: 'a.jpg', type: 'image/jpeg', data: bytesToBase64(jpeg) }]);
  });
});

describe('the edit form', () => {
  const record = { id: 3, installer: '李', installTime: NOW - 86_400_000, remark: 'r', photos: [{ id: 1 }, { id: 2 }] } as unknown as Installation;

  it('counts kept and added photos against the limit', () => {
    const v = initialEdit(record);
    expect(validateEdit({ ...v, photos: Array.from({ length: 7 }, (_, i) => ok(`${i}.jpg`)) }, 2, NOW)).toEqual({});
    expect(validateEdit({ ...v, photos: Array.from({ length: 8 }, (_, i) => ok(`${i}.jpg`)) }, 2, NOW).photos).toEqual({ photo: { code: 'photoCount', max: 9 } });
    expect(validateEdit({ ...v, removePhotoIds: [1], photos: Array.from({ length: 8 }, (_, i) => ok(`${i}.jpg`)) }, 2, NOW)).toEqual({});
  });

  it('sends the own fields, added photos and removed photo ids', () => {
    const v = { ...initialEdit(record), removePhotoIds: [2], photos: [ok('c.jpg')] };
    expect(toUpdate(3, v)).toMatchObject({ id: 3, installer: '李', remark: 'r', installTime: Math.floor((NOW - 86_400_000) / 60_000) * 60_000, removePhotoIds: [2], addPhotos: [{ name: 'c.jpg' }] });
    expect(toUpdate(3, initialEdit(record))).not.toHaveProperty('addPhotos');
  });
});

describe('reading a picked photo', () => {
  it('checks the bytes, not the name or the declared type', async () => {
    const good = await readPhoto(new File([jpeg], 'pic.png', { type: '' }));
    expect(good.problem).toBeUndefined();
    expect(atob(good.data).length).toBe(jpeg.length);
    const gif = await readPhoto(new File([new TextEncoder().encode('GIF89a....')], 'pic.jpg', { type: 'image/jpeg' }));
    expect(gif.problem).toEqual({ code: 'photoType', name: 'pic.jpg' });
    const mismatch = await readPhoto(new File([jpeg], 'pic.png', { type: 'image/png' }));
    expect(mismatch.problem).toEqual({ code: 'photoTypeMismatch', name: 'pic.png', declared: 'image/png', actual: 'image/jpeg' });
    const big = await readPhoto(new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }));
    expect(big.problem).toEqual({ code: 'photoSize', name: 'big.jpg', max: 2 * 1024 * 1024 });
  });

  it('encodes large files in chunks', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => i % 251);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});
