import { LinesPage } from '../../features/lines/LinesPage.tsx';

export default LinesPage;
