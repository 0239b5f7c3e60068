import { TravelDetailsPage } from '../../../features/reports/operation/pages.tsx';

export default TravelDetailsPage;
