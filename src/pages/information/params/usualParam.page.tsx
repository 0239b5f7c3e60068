import { TerminalParamsPage } from '../../../features/terminal-params/TerminalParamsPage.tsx';

export default function UsualParamPage() {
  return <TerminalParamsPage usual />;
}
