import { FaceResultPage } from '../../../features/face-recognition/ResultPage.tsx';

export default FaceResultPage;
