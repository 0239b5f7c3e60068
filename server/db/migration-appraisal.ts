/**
 * Migration 8 (issue 5, vehicle appraisal): the appraisal settings per company. No row = inherited
 * from the nearest ancestor with a row, else `DEFAULT_APPRAISAL_SETTINGS` (domain/appraisal/rules.ts).
 * Weights are whole percent (sum 100, checked by the domain rule before writing); thresholds are
 * alarms per 100 km. Creator and updater names are kept as shown at the time (users may be deleted).
 */
export const APPRAISAL_MIGRATION = {
  version: 8,
  name: 'vehicle appraisal: settings per company',
  sql: `
    CREATE TABLE appraisal_setting (
      company_id INTEGER PRIMARY KEY REFERENCES company(id) ON DELETE CASCADE,
      w_driving_skill INTEGER NOT NULL,
      w_driving_behaviour INTEGER NOT NULL,
      w_traffic_violation INTEGER NOT NULL,
      w_traffic_accident INTEGER NOT NULL,
      w_vehicle_operation INTEGER NOT NULL,
      t_driving_skill REAL NOT NULL,
      t_driving_behaviour REAL NOT NULL,
      t_traffic_violation REAL NOT NULL,
      t_traffic_accident REAL NOT NULL,
      t_vehicle_operation REAL NOT NULL,
      creator_id INTEGER,
      creator_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      updater_id INTEGER,
      updater_name TEXT NOT NULL,
      update_time INTEGER NOT NULL
    );
  `,
};
