import { RecordingsPage } from '../../features/recordings/RecordingsPage.tsx';

export default RecordingsPage;
