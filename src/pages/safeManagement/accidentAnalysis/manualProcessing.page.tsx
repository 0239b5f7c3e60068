import { ManualProcessingPage } from '../../../features/accidents/ManualProcessingPage.tsx';

export default function ManualProcessing() {
  return <ManualProcessingPage />;
}
