import { FeedbackPage } from '../../../features/app-feedback/FeedbackPage.tsx';

export default function PlatformFeedbackPage() {
  return <FeedbackPage source={2} />;
}
