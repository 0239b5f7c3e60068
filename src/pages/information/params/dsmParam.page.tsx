import { DSM_PARAMS } from '../../../../domain/terminal-params/active-safety.ts';
import { ActiveSafetyPage } from '../../../features/terminal-params/ActiveSafetyPage.tsx';

export default function DsmParamPage() {
  return <ActiveSafetyPage layout={DSM_PARAMS} />;
}
