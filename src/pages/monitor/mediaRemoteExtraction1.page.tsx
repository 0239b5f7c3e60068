import { RecordingUploadPage } from '../../features/recording-upload/RecordingUploadPage.tsx';

export default RecordingUploadPage;
