import { describe, expect, it } from 'vitest';
import { computeCoverage, methodMismatches, normalisePath, renderMarkdown, type CatalogueCall, type SpecLists } from './model.ts';
import lists from './spec-lists.json' with { type: 'json' };

const spec = lists as unknown as SpecLists;

describe('the lists taken from the spec', () => {
  it('hold the overview\'s 178 screens in 16 areas and the catalogue\'s 291 calls (counted by hand)', () => {
    expect(Object.keys(spec.screens)).toHaveLength(16);
    expect(Object.values(spec.screens).flat()).toHaveLength(178);
    expect(new Set(Object.values(spec.screens).flat()).size).toBe(178);
    expect(spec.calls).toHaveLength(291);
    const perService = Object.fromEntries([...new Set(spec.calls.map((c) => c.service))].map((s) => [s, spec.calls.filter((c) => c.service === s).length]));
    expect(perService).toEqual({
      'service-safe': 41, 'service-priv': 78, 'service-onlinegps': 18, 'service-ops': 20, 'service-command': 37, 'service-qpshell': 28,
      'service-safesheet': 12, 'service-monitor': 21, 'service-crm': 16, 'service-app': 1, sanitation: 19,
    });
  });

  it('say POST for the two media result calls that the server once served as GET', () => {
    for (const name of ['searchDeviceMediaResult', 'uploadDeviceMediaByMediaIdResult']) {
      expect(spec.calls.find((c) => c.path === `/service-command/command/${name}`)?.method).toBe('POST');
    }
  });
});

describe('method comparison', () => {
  const calls: CatalogueCall[] = [
    { service: 's', method: 'POST', path: '/service-x/a/result' },
    { service: 's', method: 'GET', path: '/service-x/item/{id}' },
    { service: 's', method: 'GET', path: '/service-x/both' },
    { service: 's', method: 'POST', path: '/service-x/both' },
    { service: 's', method: null, path: '/service-x/unknown' },
  ];

  it('flags a path the server registers with another method than the catalogue\'s', () => {
    expect(methodMismatches(calls, [{ method: 'GET', url: '/service-x/a/result' }, { method: 'HEAD', url: '/service-x/a/result' }])).toEqual([
      { path: '/service-x/a/result', catalogue: ['POST'], server: ['GET'] },
    ]);
  });

  it('flags a path that lacks one of two catalogue methods, ignores parameter names, paths not built and unstated methods', () => {
    expect(methodMismatches(calls, [
      { method: 'GET', url: '/service-x/item/:itemId' },
      { method: 'GET', url: '/service-x/both' },
      { method: 'PUT', url: '/service-x/unknown' },
    ])).toEqual([{ path: '/service-x/both', catalogue: ['GET', 'POST'], server: ['GET'] }]);
    expect(normalisePath('/a/{id}/b/:x')).toBe('/a/:/b/:');
  });

  it('accepts a method the server adds to a catalogue path and lists it beyond the catalogue', () => {
    const routes = [{ method: 'POST', url: '/service-x/a/result' }, { method: 'DELETE', url: '/service-x/a/result' }];
    expect(methodMismatches(calls, routes)).toEqual([]);
    const c = computeCoverage({ spec: { screens: {}, calls, parkingServiceNote: '' }, registryRoutes: [], builtPages: [], serverRoutes: routes });
    expect(c.callsBeyondCatalogue).toEqual(['DELETE /service-x/a/result']);
  });
});

describe('coverage', () => {
  const small: SpecLists = {
    screens: { '/a': ['/a/one', '/a/two'], '/b': ['/b/x'] },
    calls: [
      { service: 'service-a', method: 'GET', path: '/service-a/list' },
      { service: 'service-a', method: 'POST', path: '/service-a/save' },
      { service: 'service-b', method: null, path: null, name: 'visit' },
    ],
    parkingServiceNote: 'Parking: not shown.',
  };
  const c = computeCoverage({
    spec: small,
    registryRoutes: ['/a', '/a/one', '/a/two', '/b', '/b/x', '/b/extra'],
    builtPages: ['/a/two'],
    serverRoutes: [{ method: 'GET', url: '/service-a/list' }, { method: 'GET', url: '/service-a/save' }, { method: 'POST', url: '/service-priv/login' }],
  });

  it('counts a screen built only when its page file exists, and a call only with the catalogue method', () => {
    expect(c.screens.map((a) => [a.area, a.built.length, a.total])).toEqual([['/a', 1, 2], ['/b', 0, 1]]);
    expect(c.screens[0]?.missing).toEqual(['/a/one']);
    expect(c.calls.map((a) => [a.area, a.built.length, a.total])).toEqual([['service-a', 1, 2], ['service-b', 0, 1]]);
    expect(c.calls[1]?.missing).toEqual(['visit']);
    expect(c.screensBeyondSpec).toEqual(['/b/extra']);
    // the GET on a POST path is both a mismatch and a call the catalogue does not list
    expect(c.callsBeyondCatalogue).toEqual(['GET /service-a/save', 'POST /service-priv/login']);
  });

  it('counts a call named without a path as built only when every path we chose for it is registered with its method', () => {
    const chosen: SpecLists = {
      ...small,
      calls: [
        { service: 'service-c', method: null, path: null, name: 'accident page', ours: ['POST /service-c/accident/page'] },
        { service: 'service-c', method: null, path: null, name: 'accident upload', ours: ['POST /service-c/accident/upload', 'GET /service-c/accident/file'] },
        { service: 'service-c', method: null, path: null, name: 'accident detail', ours: ['GET /service-c/accident/detail'] },
      ],
    };
    const got = computeCoverage({
      spec: chosen,
      registryRoutes: [],
      builtPages: [],
      // upload: only one of its two paths; detail: registered with another method
      serverRoutes: [{ method: 'POST', url: '/service-c/accident/page' }, { method: 'POST', url: '/service-c/accident/upload' }, { method: 'POST', url: '/service-c/accident/detail' }],
    });
    expect(got.calls[0]?.built).toEqual(['accident page (ours: POST /service-c/accident/page)']);
    expect(got.calls[0]?.missing).toHaveLength(2);
    // a chosen path is the catalogue's own, not a call beyond it
    expect(got.callsBeyondCatalogue).toEqual(['POST /service-c/accident/detail']);
  });

  it('writes the totals and the missing names into the markdown table', () => {
    const md = renderMarkdown(c, small.parkingServiceNote);
    expect(md).toContain('**Console: 1 of 3 screens built. Server: 1 of 3 catalogue calls built.**');
    expect(md).toContain('| `/a` | 1 / 2 | `two` |');
    expect(md).toContain('- `/a` (1): one');
    expect(md).toContain('`/service-a/save`: catalogue POST, server GET');
  });
});
