import { PhotoWallPage } from '../../features/photowall/PhotoWallPage.tsx';

export default PhotoWallPage;
