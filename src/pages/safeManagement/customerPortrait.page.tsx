import { CustomerPortraitPage } from '../../features/cab-supervision/CustomerPortraitPage.tsx';

export default function CustomerPortrait() {
  return <CustomerPortraitPage />;
}
