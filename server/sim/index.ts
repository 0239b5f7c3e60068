/** Public surface of the fleet simulator (see CONTEXT.md). */
export { CITIES, type City } from './cities.ts';
export { DB_FILE, generatedTerminals, readProvisionedTerminals } from './fleet-source.ts';
export { generatedDeviceNo, startSimulator, type RunningSimulator, type SimulatorOptions, type TerminalSpec } from './simulator.ts';
export { spawnSimulatorProcess, type SimulatorProcess, type SpawnSimulatorOptions } from './spawn.ts';
export { emptyStats, errorCount, type SimStats } from './terminal.ts';
export { DEFAULT_RATES, VehicleProgram, type Emission, type Link, type SimRates, type VehicleSpec } from './vehicle.ts';
