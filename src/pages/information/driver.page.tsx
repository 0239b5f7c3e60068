import { DriverPage } from '../../features/drivers/DriverPage.tsx';

export default DriverPage;
