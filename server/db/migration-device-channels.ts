/**
 * Migration 15 (issue 12 §4): a terminal's channels come from what is known about it, never from a
 * list shared by every terminal.
 *
 * - `device_channel`: the channels the device's record lists (installation: number, name, audio or
 *   video), written by device management; where a vehicle has rows here, they are its channels.
 * - `terminal_av_attributes`: the terminal's own answer to 0x9003 (JT/T 1078 0x1003: audio encoding,
 *   channels, sampling, frame length, audio output, video encoding, physical audio / video channel
 *   counts), asked once when the terminal first authenticates and kept; the latest answer replaces it.
 *
 * A vehicle with neither has unknown channels, and the console says so.
 */
export const DEVICE_CHANNELS_MIGRATION = {
  version: 15,
  name: 'device channels: the device record and the terminal audio/video attributes (0x1003)',
  sql: `
    CREATE TABLE device_channel (
      vehicle_id INTEGER NOT NULL REFERENCES vehicle(id) ON DELETE CASCADE,
      -- JT/T 1076 table 2 logical channel number.
      channel INTEGER NOT NULL CHECK (channel BETWEEN 1 AND 37),
      kind TEXT NOT NULL CHECK (kind IN ('video', 'audio')),
      name TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (vehicle_id, channel)
    ) WITHOUT ROWID;

    CREATE TABLE terminal_av_attributes (
      vehicle_id INTEGER PRIMARY KEY REFERENCES vehicle(id) ON DELETE CASCADE,
      audio_encoding INTEGER NOT NULL,
      audio_channels INTEGER NOT NULL,
      sampling_rate INTEGER NOT NULL,
      sampling_bits INTEGER NOT NULL,
      audio_frame_length INTEGER NOT NULL,
      audio_output INTEGER NOT NULL CHECK (audio_output IN (0, 1)),
      video_encoding INTEGER NOT NULL,
      max_audio_channels INTEGER NOT NULL,
      max_video_channels INTEGER NOT NULL,
      -- When the platform received the answer (epoch ms).
      reported_time INTEGER NOT NULL
    );
  `,
} as const;
