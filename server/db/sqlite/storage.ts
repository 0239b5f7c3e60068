import type { Repositories, Storage } from '../repositories.ts';
import type { SqliteDb } from '../sqlite.ts';
import { SqliteAlarmStatsRepository } from './alarm-stats.ts';
import { SqliteAlarmRepository } from './alarms.ts';
import { SqliteBoardRepository } from './board.ts';
import { SqliteAppraisalRepository } from './appraisal.ts';
import { SqliteCompanyRepository } from './companies.ts';
import { SqliteFleetRepository } from './fleet.ts';
import { SqlitePermissionRepository } from './permissions.ts';
import { SqlitePositionRepository } from './positions.ts';
import { SqliteRoleRepository } from './roles.ts';
import { SqliteLoginGuardRepository, SqliteSessionRepository } from './sessions.ts';
import { SqliteStreamRepository } from './streams.ts';
import { SqliteMediaRepository } from './media.ts';
import { SqliteRecordingUploadRepository } from './recording-uploads.ts';
import { SqliteExportFileRepository, SqliteMediaSearchRepository, SqliteObdRepository } from './persisted.ts';
import { SqliteRetentionRepository } from './retention.ts';
import { SqliteChannelRepository } from './channels.ts';
import { SqliteDeviceTypeRepository } from './device-types.ts';
import { SqliteVehicleRepository } from './vehicles.ts';
import { SqliteDeviceRepository } from './devices.ts';
import { SqliteDriverRepository } from './drivers.ts';
import { SqliteInstallationRepository } from './installations.ts';
import { SqliteLineRepository } from './lines.ts';
import { SqliteChangeLogRepository } from './change-log.ts';
import { SqliteTerminalRepository } from './terminals.ts';
import { SqliteTrackRepository } from './tracks.ts';
import { SqliteUserRepository } from './users.ts';

/** The SQLite backend: one connection, repositories over it, serialised transactions. */
export class SqliteStorage implements Storage {
  readonly companies: SqliteCompanyRepository;
  readonly users: SqliteUserRepository;
  readonly roles: SqliteRoleRepository;
  readonly permissions: SqlitePermissionRepository;
  readonly sessions: SqliteSessionRepository;
  readonly loginGuard: SqliteLoginGuardRepository;
  readonly fleet: SqliteFleetRepository;
  readonly positions: SqlitePositionRepository;
  readonly tracks: SqliteTrackRepository;
  readonly terminals: SqliteTerminalRepository;
  readonly alarms: SqliteAlarmRepository;
  readonly board: SqliteBoardRepository;
  readonly alarmStats: SqliteAlarmStatsRepository;
  readonly streams: SqliteStreamRepository;
  readonly appraisal: SqliteAppraisalRepository;
  readonly media: SqliteMediaRepository;
  readonly recordingUploads: SqliteRecordingUploadRepository;
  readonly obd: SqliteObdRepository;
  readonly mediaSearches: SqliteMediaSearchRepository;
  readonly exportFiles: SqliteExportFileRepository;
  readonly retention: SqliteRetentionRepository;
  readonly channels: SqliteChannelRepository;
  readonly deviceTypes: SqliteDeviceTypeRepository;
  readonly vehicles: SqliteVehicleRepository;
  readonly devices: SqliteDeviceRepository;
  readonly drivers: SqliteDriverRepository;
  readonly installations: SqliteInstallationRepository;
  readonly lines: SqliteLineRepository;
  readonly changeLog: SqliteChangeLogRepository;
  /** Tail of the transaction queue: one transaction at a time on the single connection. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly db: SqliteDb) {
    this.companies = new SqliteCompanyRepository(db);
    this.users = new SqliteUserRepository(db);
    this.roles = new SqliteRoleRepository(db);
    this.permissions = new SqlitePermissionRepository(db);
    this.sessions = new SqliteSessionRepository(db);
    this.loginGuard = new SqliteLoginGuardRepository(db);
    this.fleet = new SqliteFleetRepository(db);
    this.positions = new SqlitePositionRepository(db);
    this.tracks = new SqliteTrackRepository(db);
    this.terminals = new SqliteTerminalRepository(db);
    this.alarms = new SqliteAlarmRepository(db);
    this.board = new SqliteBoardRepository(db);
    this.alarmStats = new SqliteAlarmStatsRepository(db);
    this.streams = new SqliteStreamRepository(db);
    this.appraisal = new SqliteAppraisalRepository(db);
    this.media = new SqliteMediaRepository(db);
    this.recordingUploads = new SqliteRecordingUploadRepository(db);
    this.obd = new SqliteObdRepository(db);
    this.mediaSearches = new SqliteMediaSearchRepository(db);
    this.exportFiles = new SqliteExportFileRepository(db);
    this.retention = new SqliteRetentionRepository(db);
    this.channels = new SqliteChannelRepository(db);
    this.deviceTypes = new SqliteDeviceTypeRepository(db);
    this.vehicles = new SqliteVehicleRepository(db);
    this.devices = new SqliteDeviceRepository(db);
    this.drivers = new SqliteDriverRepository(db);
    this.installations = new SqliteInstallationRepository(db);
    this.lines = new SqliteLineRepository(db);
    this.changeLog = new SqliteChangeLogRepository(db);
  }

  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this);
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
