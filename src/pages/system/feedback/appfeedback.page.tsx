import { FeedbackPage } from '../../../features/app-feedback/FeedbackPage.tsx';

export default function AppFeedbackPage() {
  return <FeedbackPage source={1} />;
}
