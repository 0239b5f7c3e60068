import { TextTemplatesPage } from '../../../features/voice/TextTemplatesPage.tsx';

export default function TextResourcesPage() {
  return <TextTemplatesPage />;
}
