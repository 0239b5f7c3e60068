import { PassengerSupervisionPage } from '../../../features/reports/passengers/pages.tsx';

export default PassengerSupervisionPage;
