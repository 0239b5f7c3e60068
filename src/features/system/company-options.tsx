import type { CompanyOption } from './types.ts';

export interface CompanyChoice {
  value: string;
  label: string;
  depth: number;
}

/**
 * The flat company list of GET /company/tree in tree order (each parent before its children,
 * siblings by name), with depth, for pickers. Companies whose parent is outside the list are roots.
 */
export function companiesInTreeOrder(list: readonly CompanyOption[]): { company: CompanyOption; depth: number }[] {
  const ids = new Set(list.map((c) => c.id));
  const kids = new Map<number, CompanyOption[]>();
  const roots: CompanyOption[] = [];
  for (const c of list) {
    if (c.pid && ids.has(c.pid)) {
      const arr = kids.get(c.pid) ?? [];
      arr.push(c);
      kids.set(c.pid, arr);
    } else roots.push(c);
  }
  const byName = (a: CompanyOption, b: CompanyOption) => a.name.localeCompare(b.name) || a.id - b.id;
  const out: { company: CompanyOption; depth: number }[] = [];
  const seen = new Set<number>();
  const walk = (c: CompanyOption, depth: number) => {
    if (seen.has(c.id)) return;
    seen.add(c.id);
    out.push({ company: c, depth });
    for (const k of (kids.get(c.id) ?? []).sort(byName)) walk(k, depth + 1);
  };
  for (const r of roots.sort(byName)) walk(r, 0);
  return out;
}

/** Select options in tree order; `depth` lets renderCompanyOption indent them. */
export function companyOptions(list: readonly CompanyOption[], exclude?: ReadonlySet<number>): CompanyChoice[] {
  return companiesInTreeOrder(list)
    .filter(({ company }) => !exclude?.has(company.id))
    .map(({ company, depth }) => ({ value: String(company.id), label: company.name, depth }));
}

/** Renders a company option indented by its depth (Select `renderOption`), so the hierarchy reads in a flat list. */
export function renderCompanyOption({ option }: { option: { value: string; label: string } }) {
  const depth = (option as Partial<CompanyChoice>).depth ?? 0;
  return <span style={{ paddingLeft: depth * 14 }}>{option.label}</span>;
}

/** Ids of a company and everything below it (a company cannot move under its own subtree). */
export function subtreeOf(list: readonly CompanyOption[], id: number): Set<number> {
  const out = new Set<number>([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of list) if (!out.has(c.id) && out.has(c.pid)) {
      out.add(c.id);
      grew = true;
    }
  }
  return out;
}
