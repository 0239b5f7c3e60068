/**
 * Migration 55 (issue 17 leftovers: the slag-truck transport permit register, 准运证; 70006;
 * server/services/box-status/api.md, domain/box/permit.ts).
 *
 * `box_permit`: one permit of one vehicle: its number (unique per company), the validity period
 * [valid_from, valid_to) in epoch ms, the disposal site it names (optional; a deleted site leaves the
 * permit without one) and its approved route as text (the route as bound on /monitor/route_map is what
 * 70007 checks; this is the permit's wording). The company is the vehicle's: set at saving and moved
 * with the vehicle (modifyVehiCompany); scope checks and the number's uniqueness use it. A vehicle's
 * deletion deletes its permits.
 */
export const BOX_PERMITS_MIGRATION = {
  version: 55,
  name: 'slag-truck transport permits',
  sql: `
    CREATE TABLE box_permit (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES company(id) ON DELETE CASCADE,
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      permit_no TEXT NOT NULL,
      valid_from INTEGER NOT NULL,
      valid_to INTEGER NOT NULL CHECK (valid_to > valid_from),
      site_id INTEGER REFERENCES box_site(id) ON DELETE SET NULL,
      route TEXT NOT NULL DEFAULT '',
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      UNIQUE (company_id, permit_no)
    );
    CREATE INDEX box_permit_vehicle ON box_permit(vehicle_id, valid_to);
  `,
};
