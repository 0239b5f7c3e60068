/**
 * Migration 26 (issue 15, the photo wall: server/services/photowall/api.md): a named, saved set of
 * vehicles and camera channels an operator watches as a grid of their latest photos.
 *
 * `photo_wall`: one wall; `company_id` is the company it belongs to (lists are scoped by it), the creator
 * is kept for "my walls" (`created_by` goes NULL when the user is deleted, the name stays). `channels` is
 * a JSON array of logical channels ('[]': each vehicle's own cameras), `refresh_seconds` how often the
 * screen reloads the photos.
 * `photo_wall_vehicle`: the wall's vehicles in the operator's order; a deleted vehicle leaves its walls.
 * Scoping on read is by the VEHICLE's company, not the wall's: a wall never shows a vehicle outside the
 * reader's subtree even when someone with a wider scope saved it there.
 */
export const PHOTOWALL_MIGRATION = {
  version: 26,
  name: 'photo walls: saved vehicle and channel sets watched as a grid of latest photos',
  sql: `
    CREATE TABLE photo_wall (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      channels TEXT NOT NULL DEFAULT '[]',
      refresh_seconds INTEGER NOT NULL DEFAULT 30 CHECK (refresh_seconds BETWEEN 10 AND 3600),
      remark TEXT NOT NULL DEFAULT '',
      created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
      created_by_name TEXT NOT NULL,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL
    );
    CREATE INDEX photo_wall_company ON photo_wall(company_id);
    CREATE INDEX photo_wall_creator ON photo_wall(created_by);
    CREATE TABLE photo_wall_vehicle (
      wall_id INTEGER NOT NULL REFERENCES photo_wall(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      sort INTEGER NOT NULL,
      PRIMARY KEY (wall_id, vehicle_id)
    );
    CREATE INDEX photo_wall_vehicle_vehicle ON photo_wall_vehicle(vehicle_id);
  `,
};
