import { ADAS_PARAMS } from '../../../../domain/terminal-params/active-safety.ts';
import { ActiveSafetyPage } from '../../../features/terminal-params/ActiveSafetyPage.tsx';

export default function AdasParamPage() {
  return <ActiveSafetyPage layout={ADAS_PARAMS} />;
}
