/**
 * The active basemap choice, shared by every map on the page and persisted (see map-sources.ts).
 * React reads it with `useMapSources()`; MonitorPage forwards `displayCrs` to the stream worker.
 */
import { useSyncExternalStore } from 'react';
import { displayCrsOf, loadSettings, saveSettings, type MapSourceSettings } from './map-sources.ts';

let current: MapSourceSettings = loadSettings();
const listeners = new Set<() => void>();

export const mapSourceStore = {
  get(): MapSourceSettings {
    return current;
  },
  set(next: MapSourceSettings): void {
    current = next;
    saveSettings(next);
    for (const l of listeners) l();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useMapSources(): MapSourceSettings {
  return useSyncExternalStore(mapSourceStore.subscribe, mapSourceStore.get);
}

export function useDisplayCrs() {
  return displayCrsOf(useMapSources());
}
