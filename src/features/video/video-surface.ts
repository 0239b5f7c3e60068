/**
 * The one way a page puts a video channel on screen: a new canvas handed to the WebCodecs video worker,
 * or a muted autoplaying <video> for jmuxer/MSE where WebCodecs is missing. Used by the video wall, the
 * terminal-recording player and the received-file player.
 */
import { openMseChannel, openWebCodecsChannel, supportsWebCodecs, type VideoChannel, type VideoChannelEvents } from '../../live/video/video-channel.ts';

export const DECODER: 'webcodecs' | 'mse' = supportsWebCodecs() ? 'webcodecs' : 'mse';

/** Fills the host (React's div) with the surface; `data-painted` counts painted frames (e2e reads it). */
export function mountVideoSurface(host: HTMLElement, testId: string, events: VideoChannelEvents = {}): VideoChannel {
  // A new element per session: a canvas can hand its control to a worker only once.
  const el = document.createElement(DECODER === 'webcodecs' ? 'canvas' : 'video');
  el.style.cssText = 'width:100%;height:100%;object-fit:contain;display:block;background:#000';
  el.dataset.testid = testId;
  host.replaceChildren(el);
  const withPainted: VideoChannelEvents = {
    ...events,
    stats: (s, latencies, at) => {
      events.stats?.(s, latencies, at);
      el.dataset.painted = String(s.painted);
    },
  };
  if (el instanceof HTMLCanvasElement) return openWebCodecsChannel(el, withPainted);
  const video = el as HTMLVideoElement;
  video.muted = true;
  video.autoplay = true;
  video.playsInline = true;
  return openMseChannel(video, withPainted);
}
