import { RoutePlansPage } from '../../features/route-plans/RoutePlansPage.tsx';

export default function RouteMapPage() {
  return <RoutePlansPage />;
}
