import { VehiclePage } from '../../features/vehicles/VehiclePage.tsx';

export default VehiclePage;
