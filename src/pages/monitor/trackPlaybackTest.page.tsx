import { TrackDiagnosisPage } from '../../features/track-diagnosis/TrackDiagnosisPage.tsx';

export default TrackDiagnosisPage;
