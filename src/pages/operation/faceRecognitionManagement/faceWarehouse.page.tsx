import { FaceWarehousePage } from '../../../features/face-warehouse/FaceWarehousePage.tsx';

export default FaceWarehousePage;
