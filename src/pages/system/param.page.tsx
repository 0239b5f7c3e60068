import { ParamPage } from '../../features/system-config/ParamPage.tsx';

export default ParamPage;
