import { TrackSearchPage } from '../../features/track/TrackSearchPage.tsx';

export default TrackSearchPage;
