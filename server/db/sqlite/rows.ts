/** Row shapes as SQLite returns them, and their mapping to records. */
import type { Company, Line, PermissionRow, Vehicle } from '../types.ts';

export interface CompanyRowDb {
  id: number; pid: number | null; name: string; contact: string; phone: string; address: string; remark: string;
  path: string; create_time: number; update_time: number;
}

export function toCompany(r: CompanyRowDb): Company {
  return {
    id: r.id, pid: r.pid ?? 0, name: r.name, contact: r.contact, phone: r.phone, address: r.address, remark: r.remark,
    path: r.path, createTime: r.create_time, updateTime: r.update_time,
  };
}

export interface VehicleRowDb {
  id: number; vehiidno: string; company_id: number; line_id: number | null; device_no: string | null; vin: string;
  create_time: number; path: string;
}

export function toVehicle(r: VehicleRowDb): Vehicle {
  return {
    id: r.id, vehiidno: r.vehiidno, companyId: r.company_id, lineId: r.line_id, deviceNo: r.device_no, vin: r.vin,
    createTime: r.create_time, path: r.path,
  };
}

export interface LineRowDb { id: number; name: string; company_id: number; path: string }

export function toLine(r: LineRowDb): Line {
  return { id: r.id, name: r.name, companyId: r.company_id, path: r.path };
}

export interface PermissionRowDb { id: number; pid: number; type: 1 | 2; route_key: string; name: string; name_en: string; sort: number }

export function toPermission(r: PermissionRowDb): PermissionRow {
  return { id: r.id, pid: r.pid, type: r.type, routeKey: r.route_key, name: r.name, nameEn: r.name_en, sort: r.sort };
}

/** `?, ?, ?` for an IN list. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Escapes LIKE wildcards so a keyword matches literally (used with ESCAPE '\\'). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
