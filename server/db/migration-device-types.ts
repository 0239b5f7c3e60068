/**
 * Migration 18 (issue 13): device types (/information/deviceType), the first resource declared on the
 * resource layer (server/resources/). A type belongs to a company and is seen by that company's subtree,
 * like roles. Names are unique per company (case-insensitively), so a picker never shows two alike.
 */
export const DEVICE_TYPES_MIGRATION = {
  version: 18,
  name: 'device types per company',
  sql: `
    CREATE TABLE device_type (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES company(id),
      name TEXT NOT NULL,
      protocol INTEGER NOT NULL CHECK (protocol IN (2013, 2019)),
      maker_id TEXT NOT NULL DEFAULT '',
      model TEXT NOT NULL DEFAULT '',
      remark TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX device_type_name ON device_type(company_id, name COLLATE NOCASE);
  `,
};
