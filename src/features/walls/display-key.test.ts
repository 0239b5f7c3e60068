import { describe, expect, it } from 'vitest';
import { wallDisplayKey, wallOf } from './display-key.ts';

describe('a wall display key in the URL', () => {
  it('is taken only on one of the eight wall paths, with or without the base', () => {
    expect(wallDisplayKey('/largeScreen/monitoringCenter', { key: 'wd.3.abc' })).toBe('wd.3.abc');
    expect(wallDisplayKey('/bcmp-web/largeScreen/overallMonitoring/', { key: 'wd.3.abc' })).toBe('wd.3.abc');
    // Anything else keeps the user session guard: other pages, unknown walls, the setup screen, other keys.
    expect(wallDisplayKey('/system/user', { key: 'wd.3.abc' })).toBeNull();
    expect(wallDisplayKey('/largeScreen/wallSetup', { key: 'wd.3.abc' })).toBeNull();
    expect(wallDisplayKey('/largeScreen/monitoringCenter', { key: 'eyJhbGciOi' })).toBeNull();
    expect(wallDisplayKey('/largeScreen/monitoringCenter', {})).toBeNull();
    expect(wallOf('/largeScreen/monitoringCenterZiBo')).toBe('monitoringCenterZiBo');
  });
});
