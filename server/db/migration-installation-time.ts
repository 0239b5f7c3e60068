/**
 * Migration 25 (issue 15, installation records): the record list pages newest install first across a
 * whole fleet (an administrator's default view, `ORDER BY install_time DESC, id DESC`). The only indexes
 * led with the vehicle or the company, so that page sorted every record: 66 ms for page 1 of 108,333
 * records (100,000 seeded vehicles), 189 ms for page 500. With this index (install_time, then the rowid,
 * which is the id) the page is read in order from the index.
 */
export const INSTALLATION_TIME_MIGRATION = {
  version: 25,
  name: 'installation records by install time',
  sql: `
    CREATE INDEX vehicle_installation_time ON vehicle_installation(install_time);
  `,
};
