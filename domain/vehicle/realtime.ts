/**
 * The realtime records the monitor calls answer (server/services/monitor/realtime.ts) and the console
 * reads (src/features/monitor/api.ts), and the state counts both sides compute: one contract, one place.
 */
import type { VEHICLE_STATE_NAMES, VehicleState } from './state.ts';

/** One vehicle's latest record (GET /monitor/realtime, POST batchrealtime, searchFrameVehicles). */
export interface RealtimeRecord {
  vehicleId: number;
  vehiidno: string;
  deviceNo: string;
  companyId: number;
  companyName: string;
  /** WGS-84 degrees; null before the first position. */
  lng: number | null;
  lat: number | null;
  /** km/h */
  speed: number;
  direction: number;
  altitude: number;
  status: number;
  alarm: number;
  /** Epoch ms; null before the first position. */
  gpsTime: number | null;
  /** Epoch ms of the last message; null when never heard from. */
  lastContact: number | null;
  /** 0 never online, 1 offline, 2 driving, 3 parking, 4 idling (state.ts). */
  state: VehicleState;
  stateName: (typeof VEHICLE_STATE_NAMES)[number];
  online: boolean;
}

/** Vehicles per real-time state (spec §3); "online" is driving + parking + idling. */
export interface StateCounts {
  total: number;
  online: number;
  driving: number;
  parking: number;
  idling: number;
  offline: number;
  neverOnline: number;
}

/** The server's realtimestat adds the vehicles heard from since 00:00 today (GMT+8). */
export interface RealtimeStats extends StateCounts {
  todayOnline: number;
}
