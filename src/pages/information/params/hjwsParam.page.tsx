import { HJWS_PARAMS } from '../../../../domain/terminal-params/hjws.ts';
import { ActiveSafetyPage } from '../../../features/terminal-params/ActiveSafetyPage.tsx';

export default function HjwsParamPage() {
  return <ActiveSafetyPage layout={HJWS_PARAMS} />;
}
