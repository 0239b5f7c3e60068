import { TrackPlaybackPage } from '../../features/track/TrackPlaybackPage.tsx';

export default TrackPlaybackPage;
