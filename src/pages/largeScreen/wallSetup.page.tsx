/** /largeScreen/wallSetup — display keys and wall layouts (src/features/walls/WallSetupPage.tsx). */
import { WallSetupPage } from '../../features/walls/WallSetupPage.tsx';

export default WallSetupPage;
