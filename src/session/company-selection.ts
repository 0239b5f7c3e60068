/**
 * The selected company (spec §2 "Company tree"): the request client adds `companyId` from here to
 * every call (spec §7). The company tree panel writes it; `rootCompanyId` is the root the panel
 * falls back to when a vehicle or line node is clicked. Both reset on sign-in and sign-out.
 */
import { proxy, useSnapshot } from 'valtio';

export interface CompanySelection {
  /** The selected company's id, or null when none is selected (then nothing is injected). */
  companyId: number | null;
  /** The tree's root company (the signed-in user's company until the tree loads). */
  rootCompanyId: number | null;
  /**
   * The line whose L node was clicked last (null after a company or vehicle node). A list that can show
   * a line's vehicles filters by it (the vehicle page); the other screens keep to `companyId`.
   */
  line: { id: number; name: string } | null;
}

export const companySelection = proxy<CompanySelection>({ companyId: null, rootCompanyId: null, line: null });

export function resetCompanySelection(rootCompanyId: number | null = null): void {
  companySelection.companyId = null;
  companySelection.rootCompanyId = rootCompanyId;
  companySelection.line = null;
}

export function useCompanySelection(): Readonly<CompanySelection> {
  return useSnapshot(companySelection);
}
