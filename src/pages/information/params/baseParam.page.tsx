import { TerminalParamsPage } from '../../../features/terminal-params/TerminalParamsPage.tsx';

export default function BaseParamPage() {
  return <TerminalParamsPage />;
}
