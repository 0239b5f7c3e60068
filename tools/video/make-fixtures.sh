#!/bin/sh
# Regenerates fixtures/video/ (committed test media for the JT/T 1078 codec, the simulated
# terminals and the console's decoders). Deterministic: same ffmpeg/x264 build -> same bytes
# (single encoder thread, -bitexact, the x264 version SEI stripped). Made with Debian 12's
# ffmpeg 5.1 + libx264; see fixtures/video/README.md for what each file is.
set -eu
FFMPEG=${FFMPEG:-/usr/bin/ffmpeg}
FONT=${FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf}
OUT=${1:-$(dirname "$0")/../../fixtures/video}
mkdir -p "$OUT"
ff() { "$FFMPEG" -hide_banner -loglevel error -y "$@"; }

# Burned-in frame counter and presentation time, so a painted frame proves which frame it is.
counter() { # $1 = font size, $2 = offset
  echo "drawtext=fontfile=$FONT:text='%{frame_num} %{pts\\:hms}':x=$2:y=$2:fontsize=$1:fontcolor=white:box=1:boxcolor=black"
}

# H.264 Annex-B, constrained baseline (no B-frames: decode order = display order, as dashcams send),
# GOP 25 at 25 fps = one IDR per second with SPS/PPS repeated before each, an access unit
# delimiter before every frame, CBR-ish so every second is a similar size.
x264() { # $1 = level, $2 = bitrate
  echo "-c:v libx264 -threads 1 -profile:v baseline -level:v $1 -preset veryfast -tune zerolatency \
 -g 25 -keyint_min 25 -sc_threshold 0 -bf 0 -b:v $2 -maxrate $2 -bufsize $2 -pix_fmt yuv420p \
 -x264-params aud=1:repeat-headers=1 -bsf:v filter_units=remove_types=6 -bitexact -f h264"
}

# Main stream: 640x360, 25 fps, 4 s (100 frames, 4 IDRs).
# shellcheck disable=SC2046
ff -f lavfi -i "testsrc2=size=640x360:rate=25:duration=4" -vf "$(counter 28 10)" \
  $(x264 3.0 600k) "$OUT/main-640x360-25fps-4s.h264"

# Sub stream: 320x180, 25 fps, 4 s, same pattern and counter.
# shellcheck disable=SC2046
ff -f lavfi -i "testsrc2=size=320x180:rate=25:duration=4" -vf "$(counter 16 5)" \
  $(x264 2.0 200k) "$OUT/sub-320x180-25fps-4s.h264"

# H.265 sample for the pass-through path: 320x180, 25 fps, 2 s, GOP 25, parameter sets before each IRAP.
ff -f lavfi -i "testsrc2=size=320x180:rate=25:duration=2" -c:v libx265 -preset veryfast \
  -x265-params "pools=none:frame-threads=1:keyint=25:min-keyint=25:scenecut=0:bframes=0:repeat-headers=1:aud=1:info=0:log-level=error" \
  -b:v 150k -pix_fmt yuv420p -bitexact -f hevc "$OUT/hevc-320x180-25fps-2s.h265"

# G.711 A-law, 8 kHz mono, 4 s: a 440 Hz tone with a short 1760 Hz beep at every second.
ff -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=8000:duration=4" \
  -ac 1 -ar 8000 -c:a pcm_alaw -bitexact -f alaw "$OUT/audio-g711a-8k-mono-4s.alaw"

# Camera snapshot (0x8801 answer): frame 30 of the main pattern as a 640x360 JPEG.
ff -f lavfi -i "testsrc2=size=640x360:rate=25:duration=2" -vf "$(counter 28 10),select=eq(n\\,30)" \
  -frames:v 1 -q:v 5 -pix_fmt yuvj420p -bitexact "$OUT/snapshot-640x360.jpg"

# Simulated terminals' camera photos (0x8801 / 0x0801, issue 6): 320x180 baseline JPEGs, two per camera
# channel (frames 10 and 60 of the sub pattern) with the channel burned in, so a shown photo proves its channel.
for ch in 1 2 3 4; do
  for n in 10 60; do
    ff -f lavfi -i "testsrc2=size=320x180:rate=25:duration=3" \
      -vf "$(counter 16 5),drawtext=fontfile=$FONT:text='CH$ch':x=w-tw-8:y=h-th-8:fontsize=28:fontcolor=yellow:box=1:boxcolor=black,select=eq(n\\,$n)" \
      -frames:v 1 -q:v 6 -pix_fmt yuvj420p -bitexact "$OUT/photo-ch$ch-f$n-320x180.jpg"
  done
done

ls -l "$OUT"
