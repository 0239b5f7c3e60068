import { SafetyBoardPage } from '../../features/safety-board/SafetyBoardPage.tsx';

export default SafetyBoardPage;
