/**
 * Registers maplibre's `pmtiles://` protocol once per page: tiles are read from the archive on our
 * server with HTTP range requests (the header and directories once, then one range per tile).
 * `metadata: true` reads the archive's attribution for the map's attribution control.
 */
import { addProtocol } from 'maplibre-gl';
import { Protocol } from 'pmtiles';

let registered = false;

export function ensurePmtilesProtocol(): void {
  if (registered) return;
  registered = true;
  addProtocol('pmtiles', new Protocol({ metadata: true }).tile);
}
