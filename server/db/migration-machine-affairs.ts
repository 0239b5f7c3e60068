/**
 * Migration 22 (issue 15, machine affairs): vehicles, devices, drivers, installations, lines and the
 * operator log become master data an operator manages.
 *
 * - `device`: a terminal, keyed by its 12-digit terminal phone (SIM) number `device_no`, the identity
 *   JT/T 808 frames carry. It belongs to a company and exists with or without a vehicle: auto-registered
 *   terminals are devices with `source = 'auto'` and no vehicle ("unassigned") until an operator binds one.
 * - `vehicle` is rebuilt: `device_no` (the bound device) becomes NULL-able and references `device`, so
 *   a device binds to at most one vehicle (UNIQUE) and a vehicle may have none; a device's number change
 *   follows to its vehicle (ON UPDATE CASCADE). New columns: plate colour, vehicle type, status
 *   (1 in service, 0 retired), insurance and inspection expiry (epoch ms of the China day), remark,
 *   update time. Every vehicle's old device number becomes a device row of its company first.
 * - `terminal` (registration state) is rebuilt keyed by the device alone: the auth code is held by the
 *   physical terminal, so it follows the device from one vehicle to another; `vehicle_id` is gone.
 * - `terminal_refusal`: registrations refused because the number is not entered (0x8100 result 4) or
 *   the device is bound to no vehicle (result 2), one row per number with counts, shown on the device page.
 * - `vehicle_installation` (+ `installation_photo`): binding, removal and replacement records with who,
 *   when, the old and new device and photos.
 * - `driver` (+ `driver_photo`, `driver_vehicle` the vehicles a driver drives, `driver_sign_in` the
 *   0x0702 sign-ins linked to the driver whose certificate number matches).
 * - `line` gains code, remark and update time; `line_station` holds its stations in order per direction
 *   (0 up, 1 down) on the map.
 * - `change_log`: the operator log (vehicleLog, deviceLog, …): one row per change with who, when, from
 *   where, before and after (JSON of the changed fields), scoped by the record's company.
 *
 * The rebuilds follow SQLite's documented procedure (create new, copy, drop, rename) with foreign keys
 * off for this migration only (`foreignKeysOff`), then `PRAGMA foreign_key_check` must find nothing.
 */
export const MACHINE_AFFAIRS_MIGRATION = {
  version: 22,
  name: 'machine affairs: devices apart from vehicles, vehicle fields, drivers, installations, line stations, operator log',
  foreignKeysOff: true,
  sql: `
    CREATE TABLE device (
      id INTEGER PRIMARY KEY,
      -- The terminal phone (SIM) number as 12 digits (JT/T 808 header BCD[6]; a 2019 BCD[10] number fits when its value has at most 12 digits).
      device_no TEXT NOT NULL UNIQUE CHECK (length(device_no) = 12),
      company_id INTEGER NOT NULL REFERENCES company(id),
      -- Terminal id and model as on the nameplate (0x0100 reports them too).
      terminal_id TEXT NOT NULL DEFAULT '',
      model TEXT NOT NULL DEFAULT '',
      -- Manufacturer name (the 0x0100 maker id is on the terminal row).
      maker TEXT NOT NULL DEFAULT '',
      device_type_id INTEGER REFERENCES device_type(id) ON DELETE SET NULL,
      -- JT/T 808 edition the terminal speaks.
      protocol INTEGER NOT NULL DEFAULT 2013 CHECK (protocol IN (2011, 2013, 2019)),
      -- Video channels the terminal has (0: none or unknown; JT/T 1076 logical channels go up to 37).
      channel_count INTEGER NOT NULL DEFAULT 0 CHECK (channel_count BETWEEN 0 AND 37),
      -- SIM card: ICCID (up to 20 characters); '' = not entered.
      sim_iccid TEXT NOT NULL DEFAULT '',
      -- Epoch ms of the install day; NULL = not entered.
      install_date INTEGER,
      -- How the row came to be: entered by an operator, imported, or a terminal's auto-registration.
      source TEXT NOT NULL DEFAULT 'operator' CHECK (source IN ('operator', 'import', 'auto')),
      remark TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX device_company ON device(company_id);

    INSERT INTO device (device_no, company_id, terminal_id, model, maker, protocol, source, create_time, update_time)
      SELECT v.device_no, v.company_id, COALESCE(t.terminal_id, ''), COALESCE(t.model, ''), '', 2013, 'operator', v.create_time, v.create_time
      FROM vehicle v LEFT JOIN terminal t ON t.vehicle_id = v.id;

    CREATE TABLE vehicle_rebuilt (
      id INTEGER PRIMARY KEY,
      -- The plate number (or, without a plate, the name the console shows); unique.
      vehiidno TEXT NOT NULL UNIQUE,
      -- Plate colour, JT/T 808 table (1 blue, 2 yellow, 3 black, 4 white, 5 green, 9 other); 0 = not entered.
      plate_color INTEGER NOT NULL DEFAULT 0,
      company_id INTEGER NOT NULL REFERENCES company(id),
      line_id INTEGER REFERENCES line(id) ON DELETE SET NULL,
      device_no TEXT UNIQUE REFERENCES device(device_no) ON UPDATE CASCADE,
      vin TEXT NOT NULL DEFAULT '',
      -- A code of domain/fleet/vehicle.ts VEHICLE_TYPES; '' = not entered.
      vehicle_type TEXT NOT NULL DEFAULT '',
      status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
      insurance_expire INTEGER,
      inspection_expire INTEGER,
      remark TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    INSERT INTO vehicle_rebuilt (id, vehiidno, company_id, line_id, device_no, vin, create_time, update_time)
      SELECT id, vehiidno, company_id, line_id, device_no, vin, create_time, create_time FROM vehicle;

    CREATE TABLE terminal_rebuilt (
      device_no TEXT PRIMARY KEY REFERENCES device(device_no) ON UPDATE CASCADE ON DELETE CASCADE,
      auth_code TEXT NOT NULL,
      maker_id TEXT NOT NULL DEFAULT '',
      model TEXT NOT NULL DEFAULT '',
      terminal_id TEXT NOT NULL DEFAULT '',
      plate_color INTEGER NOT NULL DEFAULT 0,
      plate TEXT NOT NULL DEFAULT '',
      register_time INTEGER NOT NULL,
      auth_time INTEGER,
      refused_count INTEGER NOT NULL DEFAULT 0,
      refused_time INTEGER,
      refused_address TEXT,
      unregister_time INTEGER,
      unregister_by TEXT CHECK (unregister_by IN ('terminal', 'operator')),
      reset_user_id INTEGER
    );
    INSERT INTO terminal_rebuilt SELECT device_no, auth_code, maker_id, model, terminal_id, plate_color, plate, register_time, auth_time,
      refused_count, refused_time, refused_address, unregister_time, unregister_by, reset_user_id FROM terminal;

    DROP TABLE terminal;
    DROP TABLE vehicle;
    ALTER TABLE vehicle_rebuilt RENAME TO vehicle;
    ALTER TABLE terminal_rebuilt RENAME TO terminal;
    CREATE INDEX vehicle_company ON vehicle(company_id, line_id);
    CREATE INDEX vehicle_line ON vehicle(line_id);
    -- The management list pages by plate within a subtree.
    CREATE INDEX vehicle_company_plate ON vehicle(company_id, vehiidno);

    CREATE TABLE terminal_refusal (
      device_no TEXT PRIMARY KEY,
      -- The 0x8100 result given last: 4 no such terminal, 2 the device has no vehicle.
      result INTEGER NOT NULL,
      count INTEGER NOT NULL,
      first_time INTEGER NOT NULL,
      last_time INTEGER NOT NULL,
      remote_address TEXT NOT NULL DEFAULT '',
      maker_id TEXT NOT NULL DEFAULT '',
      model TEXT NOT NULL DEFAULT '',
      terminal_id TEXT NOT NULL DEFAULT '',
      plate_color INTEGER NOT NULL DEFAULT 0,
      plate TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX terminal_refusal_time ON terminal_refusal(last_time);

    CREATE TABLE vehicle_installation (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      -- The vehicle's company when recorded; moved with the vehicle (modifyVehiCompany).
      company_id INTEGER NOT NULL REFERENCES company(id),
      -- install: a device onto a vehicle without one; remove: the device off; replace: old for new.
      kind TEXT NOT NULL CHECK (kind IN ('install', 'remove', 'replace')),
      old_device_no TEXT,
      new_device_no TEXT,
      -- The technician who did the work (free text) and when it was done (epoch ms).
      installer TEXT NOT NULL DEFAULT '',
      install_time INTEGER NOT NULL,
      remark TEXT NOT NULL DEFAULT '',
      -- The operator who recorded it (NULL: recorded by the system).
      user_id INTEGER,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX vehicle_installation_vehicle ON vehicle_installation(vehicle_id, install_time);
    CREATE INDEX vehicle_installation_company ON vehicle_installation(company_id, install_time);
    CREATE TABLE installation_photo (
      id INTEGER PRIMARY KEY,
      installation_id INTEGER NOT NULL REFERENCES vehicle_installation(id) ON DELETE CASCADE,
      mime TEXT NOT NULL,
      bytes BLOB NOT NULL,
      name TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL
    );
    CREATE INDEX installation_photo_installation ON installation_photo(installation_id);

    CREATE TABLE driver (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES company(id),
      name TEXT NOT NULL,
      -- Driving licence number and class (A1 … C5); licence expiry epoch ms.
      licence_no TEXT NOT NULL DEFAULT '',
      licence_class TEXT NOT NULL DEFAULT '',
      licence_expire INTEGER,
      -- Qualification certificate number: what a 0x0702 sign-in reports; unique when entered.
      cert_no TEXT NOT NULL DEFAULT '',
      cert_authority TEXT NOT NULL DEFAULT '',
      cert_expire INTEGER,
      phone TEXT NOT NULL DEFAULT '',
      status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
      remark TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX driver_company ON driver(company_id, name);
    CREATE UNIQUE INDEX driver_cert ON driver(cert_no) WHERE cert_no <> '';
    CREATE TABLE driver_photo (
      driver_id INTEGER PRIMARY KEY REFERENCES driver(id) ON DELETE CASCADE,
      mime TEXT NOT NULL,
      bytes BLOB NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE TABLE driver_vehicle (
      driver_id INTEGER NOT NULL REFERENCES driver(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      PRIMARY KEY (driver_id, vehicle_id)
    ) WITHOUT ROWID;
    CREATE INDEX driver_vehicle_vehicle ON driver_vehicle(vehicle_id);
    CREATE TABLE driver_sign_in (
      id INTEGER PRIMARY KEY,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      -- The driver whose cert_no matched when it arrived (NULL: no such driver entered).
      driver_id INTEGER REFERENCES driver(id) ON DELETE SET NULL,
      driver_cert TEXT NOT NULL,
      driver_name TEXT NOT NULL,
      sign_in_time INTEGER NOT NULL,
      sign_out_time INTEGER
    );
    CREATE INDEX driver_sign_in_driver ON driver_sign_in(driver_id, sign_in_time);
    CREATE INDEX driver_sign_in_vehicle ON driver_sign_in(vehicle_id, sign_in_time);
    CREATE INDEX driver_sign_in_cert ON driver_sign_in(driver_cert, sign_in_time);

    ALTER TABLE line ADD COLUMN code TEXT NOT NULL DEFAULT '';
    ALTER TABLE line ADD COLUMN remark TEXT NOT NULL DEFAULT '';
    ALTER TABLE line ADD COLUMN update_time INTEGER NOT NULL DEFAULT 0;
    UPDATE line SET update_time = create_time;
    CREATE TABLE line_station (
      line_id INTEGER NOT NULL REFERENCES line(id) ON DELETE CASCADE,
      -- 0 up (上行), 1 down (下行).
      direction INTEGER NOT NULL CHECK (direction IN (0, 1)),
      seq INTEGER NOT NULL CHECK (seq >= 1),
      name TEXT NOT NULL,
      lng REAL NOT NULL CHECK (lng BETWEEN -180 AND 180),
      lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
      PRIMARY KEY (line_id, direction, seq)
    ) WITHOUT ROWID;

    CREATE TABLE change_log (
      id INTEGER PRIMARY KEY,
      -- 'vehicle', 'device', 'driver', 'installation', 'line', …
      resource TEXT NOT NULL,
      record_id INTEGER NOT NULL,
      -- The record's plate / number / name at the time, so a search finds deleted records too.
      label TEXT NOT NULL DEFAULT '',
      company_id INTEGER NOT NULL,
      -- create, update, delete, import, move, bind, unbind, replace, register, …
      operation TEXT NOT NULL,
      -- NULL: the system (a terminal's auto-registration).
      user_id INTEGER,
      user_name TEXT NOT NULL DEFAULT '',
      ip TEXT NOT NULL DEFAULT '',
      time INTEGER NOT NULL,
      -- JSON objects of the changed fields before and after (NULL for a create's before and a delete's after).
      before TEXT,
      after TEXT
    );
    CREATE INDEX change_log_company ON change_log(resource, company_id, time);
    CREATE INDEX change_log_record ON change_log(resource, record_id, time);
  `,
} as const;
